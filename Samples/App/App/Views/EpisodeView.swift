import SwiftUI

final class EpisodeObserver: ObservableObject {
    @Published private(set) var title = ""
    private let episodeID: Int

    init(episodeID: Int) { self.episodeID = episodeID }

    func start() { title = "Episode \(episodeID)" }
}

struct EpisodeView: View {
    @StateObject private var observer: EpisodeObserver

    init(episodeID: Int) {
        // Built and started on every initialisation of EpisodeView; SwiftUI keeps only the first.
        let observer = EpisodeObserver(episodeID: episodeID)
        observer.start()
        _observer = StateObject(wrappedValue: observer)
    }

    var body: some View {
        Text(observer.title)
    }
}
