import Foundation
import Yams

/// A Home Assistant home: its areas, floors and entities, which fill the lists Home Assistant's
/// sentences leave to the devices (`{name}`, `{area}`, `{floor}`) and tell which entity a
/// sentence's `requires_context:` allows (its domain, the prefix of its id, and device class).
///
/// Read from the YAML form Home Assistant's intent tests use for their fixtures (`areas:`,
/// `floors:`, `entities:` with `name`, `id`, `area`, `aliases` and `attributes: {device_class}`;
/// a name may be a template such as "[the] kitchen light"), or from the JSON of its REST API's
/// `/api/states` (each entity's `entity_id` and `attributes: {friendly_name, device_class}`).
public struct HomeEntities: Sendable, Equatable {
    public struct Entity: Sendable, Equatable {
        /// How the entity may be said: its name and aliases, each a template.
        public var said: [String]
        /// The value its `name` slot gets: the name as Home Assistant knows it.
        public var name: String
        public var id: String
        public var area: String?
        public var deviceClass: String?
        /// "light" for light.kitchen.
        public var domain: String { id.split(separator: ".", maxSplits: 1).first.map(String.init) ?? id }
    }

    public struct Place: Sendable, Equatable {
        public var said: [String]
        public var name: String
        public var id: String
    }

    public var entities: [Entity] = []
    public var areas: [Place] = []
    public var floors: [Place] = []
    /// What was read but not used, and what was wrong, "file:line: …".
    public var notes: [String] = []

    public struct Failure: Error, Equatable, CustomStringConvertible {
        public var description: String
    }

    public init(entities: [Entity] = [], areas: [Place] = [], floors: [Place] = []) {
        self.entities = entities
        self.areas = areas
        self.floors = floors
    }

    /// Reads `text` (`file` names it in notes): the fixture YAML or the `/api/states` JSON.
    public static func read(_ text: String, file: String) throws(Failure) -> HomeEntities {
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch {
            throw Failure(description: "\(file): neither YAML nor JSON: \(error)")
        }
        var home = HomeEntities()
        func note(_ node: Node?, _ text: String) {
            home.notes.append("\(file):\((node?.mark?.line).map(String.init) ?? "?"): \(text)")
        }
        if let states = root?.sequence {
            // /api/states: a list of entities' states.
            for item in states {
                guard let id = item.mapping?["entity_id"]?.string else {
                    note(item, "an entry without entity_id, left out")
                    continue
                }
                let attributes = item.mapping?["attributes"]?.mapping
                let name = attributes?["friendly_name"]?.string ?? id
                home.entities.append(Entity(said: [name], name: name, id: id, area: nil,
                                            deviceClass: attributes?["device_class"]?.string))
            }
            return home
        }
        guard let top = root?.mapping else {
            throw Failure(description: "\(file): expected areas:, floors: and entities: (or the list /api/states gives)")
        }
        func places(_ key: String) -> [Place] {
            (top[key]?.sequence ?? []).compactMap { item in
                guard let fields = item.mapping, let name = fields["name"]?.string else {
                    note(item, "\(key): an entry without a name, left out")
                    return nil
                }
                let aliases = fields["aliases"]?.sequence?.compactMap(\.string) ?? []
                return Place(said: [name] + aliases, name: firstWay(of: name), id: fields["id"]?.string ?? name)
            }
        }
        home.areas = places("areas")
        home.floors = places("floors")
        for item in top["entities"]?.sequence ?? [] {
            guard let fields = item.mapping, let name = fields["name"]?.string, let id = fields["id"]?.string else {
                note(item, "entities: an entry without a name and an id, left out")
                continue
            }
            let aliases = fields["aliases"]?.sequence?.compactMap(\.string) ?? []
            home.entities.append(Entity(said: [name] + aliases, name: firstWay(of: name), id: id, area: fields["area"]?.string,
                                        deviceClass: fields["attributes"]?.mapping?["device_class"]?.string))
        }
        for (key, _) in top {
            guard let name = key.string, !["areas", "floors", "entities"].contains(name) else { continue }
            note(key, "\(name): is not used (Hark reads areas:, floors: and entities:)")
        }
        return home
    }

    /// The lists Home Assistant fills from the home, as lines of the template language (a slot
    /// file's form): each way of saying a thing, standing for its name.
    var lists: [String: [String]] {
        func lines(_ things: [(said: [String], name: String)]) -> [String] {
            things.flatMap { thing in thing.said.map { "(\($0)):\(RhasspySentences.substitute(thing.name))" } }
        }
        var result: [String: [String]] = [:]
        if !entities.isEmpty { result["name"] = lines(entities.map { ($0.said, $0.name) }) }
        if !areas.isEmpty { result["area"] = lines(areas.map { ($0.said, $0.name) }) }
        if !floors.isEmpty { result["floor"] = lines(floors.map { ($0.said, $0.name) }) }
        return result
    }

    /// What a `name` value (as `lists` writes it) is known by, for `requires_context:`: the
    /// domain and device class of every entity of that name.
    var contexts: [String: [[String: String]]] {
        var result: [String: [[String: String]]] = [:]
        for entity in entities {
            var known = ["domain": entity.domain]
            if let deviceClass = entity.deviceClass { known["device_class"] = deviceClass }
            result[entity.name, default: []].append(known)
        }
        return result
    }

    /// The first way a template is said ("[the] (kitchen | cooking) light" → "kitchen light"):
    /// the name a slot gets for any of its ways.
    static func firstWay(of template: String) -> String {
        guard let expression = try? RhasspySentences.expression(template, listsInBraces: true) else { return template }
        func first(_ expression: RhasspySentences.Expression) -> [String] {
            switch expression {
            case .word(let word, _): [word]
            case .sequence(let parts): parts.flatMap(first)
            case .alternatives(let options): options.first.map(first) ?? []
            case .substituted(let inner, _), .tagged(let inner, _, _): first(inner)
            case .optional, .rule, .slotList, .numberRange: []
            }
        }
        let words = first(expression)
        return words.isEmpty ? template : words.joined(separator: " ")
    }
}
