import Foundation

#if DEBUG
enum PreviewData {
    static let names = ["Ada", "Grace", "Katherine"]
    static let longName = "Ada Lovelace, Countess of Lovelace"
}
#endif
