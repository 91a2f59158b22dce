import ArgumentParser

/// The one acceptable placeholder: a capability whose issue is still open says so and exits 2.
func notBuiltYet(_ capability: String) -> Never {
    printError("shipcheck: error: \(capability) is not built yet in this version of shipcheck.")
    Foundation_exit(2)
}
