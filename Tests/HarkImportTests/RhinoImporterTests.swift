import Foundation
import HarkGrammar
import HarkImport
import HarkIntents
import Testing

/// Picovoice Rhino's context YAML into a Hark app that hears the same expressions.
@Suite struct RhinoImporterTests {
    static let context = """
        context:
          expressions:
            orderDrink:
              - "[I want, I'd like] (a) $size:size $drink:drink"
              - "(please) make me (a) $drink:drink"
              - "@greeting $drink:drink"
              - "pour me $milk:milk"
          slots:
            size: [small, large]
            drink:
              - latte
              - flat white

        """

    @Test func expressionsSlotsChoicesAndOptionalsBecomeAnApp() throws {
        let result = RhinoImporter.makeApp(name: "Rhino Cafe", file: "context.yml", text: Self.context)
        #expect(result.report == [
            "context.yml:6: macros (@name) are not carried over, left out: @greeting $drink:drink",
            "context.yml:3: intent orderDrink is named OrderDrink (Hark's intents are VerbNoun in UpperCamelCase)",
            "context.yml:7: $milk is not in slots:; the sentence is left out",
        ], "\(result.report)")
        let app = try AppCatalog.manifest(yaml: AppYAML.text(of: result.app, header: []), identifier: "rhino_cafe")
        let intent = try #require(app.intent(named: "OrderDrink"))
        #expect(intent.phrases.map(\.description) == ["(i want | i'd like) [a] <size> <drink>", "[please] make me [a] <drink>"])
        // Said by every phrase, so asked for when missing; the size is not.
        #expect(intent.parameter(named: "drink")?.isRequired == true)
        #expect(intent.parameter(named: "size")?.isRequired == false)
        let catalog = AppCatalog(apps: [app])
        let graph = WordGraph(catalog.topLevelGrammar())
        let match = try #require(graph.interpret(Grammar.words(of: "I'd like a large flat white")).flatMap { catalog.match($0) })
        #expect(match.values.mapValues(\.value.identifier) == ["size": "large", "drink": "flat white"])
    }
}
