import Foundation
import HarkIntents
import HarkTestSupport
import Testing

/// YAML nested deeper than any real file is refused with its line before the parser, which
/// recurses once a level, can overflow the stack.
@Suite struct YAMLNestingTests {
    static func blockMappings(_ depth: Int) -> String {
        (0..<depth).map { String(repeating: "  ", count: $0) + "a:" }.joined(separator: "\n") + " 1\n"
    }

    @Test func aManifestNestedFiveThousandLevelsIsRefusedWithItsLine() {
        let name = "name: Deep\nintents:\n"
        let flow = name + "  X: " + String(repeating: "[", count: 5_000) + String(repeating: "]", count: 5_000) + "\n"
        let block = name + Self.blockMappings(5_000).split(separator: "\n").map { "  " + $0 }.joined(separator: "\n")
        let dashes = name + "  X:\n    " + String(repeating: "- ", count: 5_000) + "x\n"
        // "name:" and "intents:" are one level, then each line of the block one more.
        for (yaml, line) in [(flow, 3), (block, YAMLNesting.limit + 2), (dashes, 4)] {
            #expect(throws: ManifestError.self) { try AppCatalog.manifest(yaml: yaml, identifier: "deep", file: "deep/app.yaml") }
            do {
                _ = try AppCatalog.manifest(yaml: yaml, identifier: "deep", file: "deep/app.yaml")
            } catch {
                #expect(error.problems.count == 1)
                #expect(error.problems.first?.file == "deep/app.yaml")
                #expect(error.problems.first?.line == line, "\(error)")
                #expect(error.description.contains("nested more than \(YAMLNesting.limit) levels deep"))
            }
        }
    }

    @Test func everyBundledManifestIsWellWithinTheLimit() throws {
        let apps = Fixtures.root.appendingPathComponent("apps")
        for folder in try FileManager.default.contentsOfDirectory(atPath: apps.path) {
            let text = try String(contentsOf: apps.appendingPathComponent(folder).appendingPathComponent("app.yaml"), encoding: .utf8)
            #expect(YAMLNesting.lineTooDeep(text, limit: 12) == nil, "\(folder)")
        }
    }

    @Test func bracketsInTextAndQuotesAreNotNesting() {
        let text = """
            phrases:
              - turn [the] light [on [now]]
              - "quoted [[[[[[ brackets"
              - 'single '' quoted {{{{{{'
              - plain don't [[[[[[
            description: |
              a block of text [[[[[[
                  indented deeper and deeper
                      and deeper
            next: {a: [1, 2], b: "]]]"}  # a comment [[[[[[
            """
        #expect(YAMLNesting.lineTooDeep(text, limit: 4) == nil)
        #expect(YAMLNesting.lineTooDeep(Self.blockMappings(64)) == nil)
        #expect(YAMLNesting.lineTooDeep(Self.blockMappings(65)) == 65)
        #expect(YAMLNesting.lineTooDeep("x: " + String(repeating: "[", count: 63) + String(repeating: "]", count: 63)) == nil)
        #expect(YAMLNesting.lineTooDeep("x: " + String(repeating: "{a: ", count: 70) + String(repeating: "}", count: 70)) == 1)
    }
}
