public import HarkDialogue
import HarkIntents

/// Corner Cafe (apps/coffee): prices an order before it is confirmed.
public struct CoffeeHandler: IntentHandler {
    static let sizePrices = ["small": 175, "medium": 200, "large": 250]
    static let milkPrices = ["oat": 50]
    static let bagPrice = 1200

    public init() {}

    public func confirm(_ request: IntentRequest) async throws -> HandlerResponse {
        switch request.intent {
        case "OrderCoffee":
            guard let size = request.values["size"]?.identifier, let price = Self.sizePrices[size] else {
                return HandlerResponse(code: .failure)
            }
            let milk = request.values["milk"]?.identifier ?? "none"
            return HandlerResponse(code: .ready, values: ["total": Self.dollars(price + Self.milkPrices[milk, default: 0])])
        case "OrderGroundCoffee":
            return HandlerResponse(code: .ready, values: ["total": Self.dollars(Self.bagPrice)])
        default:
            return .ready
        }
    }

    static func dollars(_ cents: Int) -> String {
        "$\(cents / 100).\(cents % 100 < 10 ? "0" : "")\(cents % 100)"
    }
}
