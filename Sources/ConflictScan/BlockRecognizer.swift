/// The marker lines of one conflict block as git writes it: `<<<<<<<` ours, optional `|||||||` base, `=======`
/// theirs, `>>>>>>>`; all four markers of one size.
package struct MarkerBlock: Sendable, Hashable {
    package var markerSize: Int
    package var opener: MarkerLine
    package var base: MarkerLine?
    package var separator: MarkerLine
    package var closer: MarkerLine
    /// Complete blocks with longer markers inside this one (the virtual merge base of a
    /// criss-cross merge, written with markers two longer per level).
    package var nestedBlockCount: Int
}

/// Groups marker lines into complete blocks and remnants.
///
/// A block at the top level uses exactly `markerSize`; inside an open block, a longer opener
/// starts a nested block. Each closing marker pairs with the open block of its own size, so
/// a 9-character block closes inside a 7-character one. An opener, base or closer of
/// `markerSize` that ends up in no complete block is a remnant. A separator alone never is:
/// `=======` underlines are everywhere in Markdown and reStructuredText.
package struct BlockRecognizer {
    package let markerSize: Int

    package init(markerSize: Int) { self.markerSize = markerSize }

    package struct Outcome: Sendable, Hashable {
        package var blocks: [MarkerBlock] = []
        /// Marker lines of the expected size that belong to no complete block.
        package var remnants: [MarkerLine] = []
    }

    private struct OpenBlock {
        var opener: MarkerLine
        var base: MarkerLine?
        var separator: MarkerLine?
        var nestedBlockCount = 0
        /// Markers of the expected size that did not fit this block's shape; remnants if the
        /// block never completes, part of it if it does.
        var strays: [MarkerLine] = []
        var size: Int { opener.size }
    }

    package func recognize(_ markers: [MarkerLine]) -> Outcome {
        var outcome = Outcome()
        var stack: [OpenBlock] = []

        func abandon(downTo depth: Int) {
            while stack.count > depth {
                let open = stack.removeLast()
                // Only the expected size is a marker in git's sense; longer runs of an
                // abandoned nested block are text.
                guard open.size == markerSize else { continue }
                outcome.remnants += [open.opener] + (open.base.map { [$0] } ?? []) + open.strays
            }
        }
        func stray(_ marker: MarkerLine) {
            guard marker.size == markerSize else { return }
            if stack.isEmpty { outcome.remnants.append(marker) } else { stack[0].strays.append(marker) }
        }

        for marker in markers {
            if marker.kind == .opener {
                abandon(downTo: stack.firstIndex { $0.size >= marker.size } ?? stack.count)
                if marker.size == markerSize || !stack.isEmpty { stack.append(OpenBlock(opener: marker)) }
                continue
            }
            guard let depth = stack.lastIndex(where: { $0.size == marker.size }) else {
                if marker.kind != .separator { stray(marker) }
                continue
            }
            switch marker.kind {
            case .base:
                if stack[depth].base == nil, stack[depth].separator == nil {
                    abandon(downTo: depth + 1)
                    stack[depth].base = marker
                } else {
                    stray(marker)
                }
            case .separator:
                // A second separator is content (an underline inside a side): ignore it.
                if stack[depth].separator == nil {
                    abandon(downTo: depth + 1)
                    stack[depth].separator = marker
                }
            case .closer:
                abandon(downTo: depth + 1)
                let open = stack.removeLast()
                guard let separator = open.separator else {
                    if open.size == markerSize {
                        outcome.remnants += [open.opener] + (open.base.map { [$0] } ?? []) + open.strays
                    }
                    stray(marker)
                    continue
                }
                if stack.isEmpty {
                    outcome.blocks.append(
                        MarkerBlock(
                            markerSize: open.size, opener: open.opener, base: open.base,
                            separator: separator, closer: marker,
                            nestedBlockCount: open.nestedBlockCount))
                } else {
                    stack[stack.count - 1].nestedBlockCount += 1 + open.nestedBlockCount
                }
            case .opener:
                break
            }
        }
        abandon(downTo: 0)
        outcome.remnants.sort { $0.start < $1.start }
        return outcome
    }
}
