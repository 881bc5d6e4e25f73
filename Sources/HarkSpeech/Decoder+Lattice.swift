internal import CPocketSphinx

extension Decoder {
    /// The best whole path through a word of the last utterance's lattice.
    struct BestPathThrough {
        /// The best score of any path from the utterance's start to its end that passes through
        /// the word, in natural-log units.
        var score: Double
        /// The frames the word takes on that path.
        var frames: Int
    }

    /// For each word of `words` (base words: pronunciations count as their word), the best whole
    /// path of the utterance just decoded that passes through it, read from the search's word
    /// lattice. Scores within one search are on one scale (each frame is scaled by the best
    /// senone the search has active), so paths through rival words can be compared; scores from
    /// two searches cannot. Words on no whole path are missing from the result.
    func bestPathsThrough(_ words: Set<String>) throws(RecognitionError) -> [String: BestPathThrough] {
        // No lattice: the search found no path to its end, so no word was heard on one.
        guard let lattice = ps_get_lattice(decoder) else { return [:] }
        let logmath = ps_lattice_get_logmath(lattice)
        struct Link {
            var source: OpaquePointer
            var destination: OpaquePointer
            var acoustic: Double
            var word: String
            var frames: Int
        }
        // Forward: the best score of a path from the start up to the end of each link.
        var links: [Link] = []
        var index: [OpaquePointer: Int] = [:]
        var forward: [Double] = []
        var bestEntering: [OpaquePointer: Double] = [:]
        var link = ps_lattice_traverse_edges(lattice, nil, nil)
        while let current = link {
            var source: OpaquePointer?
            let destination = ps_latlink_nodes(current, &source)
            var acoustic: Int32 = 0
            _ = ps_latlink_prob(lattice, current, &acoustic)
            var start: Int16 = 0
            let end = ps_latlink_times(current, &start)
            guard let source, let destination else {
                throw RecognitionError(.decoding, "a link of the word lattice has no node at one end")
            }
            let word = ps_latlink_baseword(lattice, current).map { String(cString: $0) } ?? ""
            let entry = Link(source: source, destination: destination, acoustic: logmath_log_to_ln(logmath, acoustic),
                             word: word, frames: Int(end) - Int(start) + 1)
            // The traversal takes a link only once every link into its source is taken, so a
            // source nothing has entered is the utterance's start.
            let before = bestEntering[source] ?? 0
            let score = before + entry.acoustic
            index[current] = links.count
            links.append(entry)
            forward.append(score)
            bestEntering[destination] = max(bestEntering[destination] ?? -.infinity, score)
            link = ps_lattice_traverse_next(lattice, nil)
        }
        // Backward: the best score from the end of each link to the utterance's end.
        var backward = [Double](repeating: -.infinity, count: links.count)
        var bestLeaving: [OpaquePointer: Double] = [:]
        link = ps_lattice_reverse_edges(lattice, nil, nil)
        while let current = link {
            if let position = index[current] {
                let destination = links[position].destination
                // Likewise backwards: a destination nothing has left is the utterance's end.
                let after = bestLeaving[destination] ?? 0
                backward[position] = after
                let source = links[position].source
                bestLeaving[source] = max(bestLeaving[source] ?? -.infinity, after + links[position].acoustic)
            }
            link = ps_lattice_reverse_next(lattice, nil)
        }
        var best: [String: BestPathThrough] = [:]
        for (position, entry) in links.enumerated() where words.contains(entry.word) {
            let score = forward[position] + backward[position]
            guard score.isFinite, score > (best[entry.word]?.score ?? -.infinity) else { continue }
            best[entry.word] = BestPathThrough(score: score, frames: entry.frames)
        }
        return best
    }
}
