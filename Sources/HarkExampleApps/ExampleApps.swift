public import HarkDialogue

/// The in-process handlers of the example apps under apps/, by app folder name.
public enum ExampleApps {
    public static var handlers: [String: any IntentHandler] {
        ["coffee": CoffeeHandler(), "soup": SoupHandler()]
    }
}
