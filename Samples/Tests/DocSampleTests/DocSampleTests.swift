import Foundation
import Testing

/// Every Swift and `.traits` block of the README and the DocC articles is a region of a sample
/// file that this package compiles (and runs), and every region is shown somewhere.
@Suite("Documentation samples")
struct DocSampleTests {
    static let samples = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let root = samples.deletingLastPathComponent()

    /// The README and every article of the DocC catalog.
    static let documents: [URL] = {
        let catalog = root.appending(path: "Sources/TraitInjection/TraitInjection.docc")
        let articles =
            (try? FileManager.default.contentsOfDirectory(at: catalog, includingPropertiesForKeys: nil)) ?? []
        return [root.appending(path: "README.md")]
            + articles.filter { $0.pathExtension == "md" }.sorted { $0.lastPathComponent < $1.lastPathComponent }
    }()

    static let blocks: [CodeBlock] = documents.flatMap { CodeBlock.all(in: $0, relativeTo: root) }
    static let regions: [SampleRegion] = SampleRegion.all(under: samples)

    @Test("The documents and the samples are found")
    func found() {
        #expect(Self.documents.count >= 7, "README.md and the DocC articles")
        #expect(Self.blocks.filter(\.isCompiled).count >= 25)
        #expect(Self.regions.count >= 25)
    }

    @Test("Each Swift and .traits block is a sample region", arguments: blocks.filter(\.isCompiled))
    func blockIsSample(block: CodeBlock) {
        guard !Self.regions.contains(where: { $0.lines == block.lines }) else { return }
        // The region sharing the most lines with the block, and where the two first differ.
        let nearest = Self.regions.max { $0.sharedLines(with: block) < $1.sharedLines(with: block) }
        let shared = nearest.map { region in zip(region.lines, block.lines).prefix { $0 == $1 }.count } ?? 0
        Issue.record(
            """
            \(block.location): this \(block.kind) block is not a region of any file in Samples/Sources, \
            Samples/Tests or Samples/Package.swift, so nothing compiles it. Copy it into a sample \
            between `sample-begin` and `sample-end` lines. Nearest region: \
            \(nearest?.location ?? "none"), which differs at its line \(shared + 1):
            doc:    \(block.lines.dropFirst(shared).first ?? "<end>")
            sample: \(nearest?.lines.dropFirst(shared).first ?? "<end>")
            """
        )
    }

    @Test("Each sample region is shown in a document")
    func regionIsShown() {
        let shown = Set(Self.blocks.filter(\.isCompiled).map(\.lines))
        for region in Self.regions where !shown.contains(region.lines) {
            Issue.record("\(region.location): this sample region is in no document; remove it or its markers")
        }
    }
}

/// A fenced code block of a Markdown file.
struct CodeBlock: CustomTestStringConvertible, Sendable {
    /// `README.md:63`, the line of the opening fence.
    let location: String
    let language: String
    /// The block's lines, without common indentation and trailing spaces.
    let lines: [String]

    /// A Swift block (except an app's manifest, which `.ci/run` builds as an app), or a plain block
    /// whose first line is a comment naming a `.traits` file.
    var isCompiled: Bool {
        switch language {
        case "swift": lines.first?.hasPrefix("// Package.swift of your app") != true
        case "": lines.first.map { $0.hasPrefix("# ") && $0.hasSuffix(".traits") } ?? false
        default: false
        }
    }

    var kind: String { language == "swift" ? "Swift" : ".traits" }
    var testDescription: String { location }

    static func all(in document: URL, relativeTo root: URL) -> [CodeBlock] {
        guard let text = try? String(contentsOf: document, encoding: .utf8) else { return [] }
        let name = document.path.replacingOccurrences(of: root.path + "/", with: "")
        var blocks: [CodeBlock] = []
        var open: (line: Int, language: String, lines: [String])?
        for (index, line) in text.components(separatedBy: "\n").enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if let block = open {
                if trimmed == "```" {
                    blocks.append(
                        CodeBlock(
                            location: "\(name):\(block.line)", language: block.language, lines: normalized(block.lines))
                    )
                    open = nil
                } else {
                    open?.lines.append(line)
                }
            } else if trimmed.hasPrefix("```") {
                open = (index + 1, String(trimmed.dropFirst(3)), [])
            }
        }
        return blocks
    }
}

/// The lines of a sample file between a `sample-begin` and a `sample-end` line (`//` or `#`
/// comments), without the markers of the regions nested in it.
struct SampleRegion: Sendable {
    let location: String
    let lines: [String]

    /// How many of `block`'s lines this region has too.
    func sharedLines(with block: CodeBlock) -> Int {
        let own = Set(lines.filter { !$0.isEmpty })
        return block.lines.filter(own.contains).count
    }

    static func all(under samples: URL) -> [SampleRegion] {
        let files =
            ["Package.swift"]
            + ["Sources", "Tests"].flatMap { folder in
                let enumerator = FileManager.default.enumerator(
                    at: samples.appending(path: folder), includingPropertiesForKeys: nil)
                return (enumerator?.allObjects as? [URL] ?? [])
                    .filter { ["swift", "traits"].contains($0.pathExtension) }
                    .map { $0.path.replacingOccurrences(of: samples.path + "/", with: "") }
            }.sorted()
        return files.flatMap { regions(in: $0, under: samples) }
    }

    static func regions(in file: String, under samples: URL) -> [SampleRegion] {
        guard let text = try? String(contentsOf: samples.appending(path: file), encoding: .utf8) else { return [] }
        var regions: [SampleRegion] = []
        // Regions may nest: a block can show part of another block's sample.
        var open: [(line: Int, lines: [String])] = []
        for (index, line) in text.components(separatedBy: "\n").enumerated() {
            let marker = line.trimmingCharacters(in: .whitespaces)
            if marker == "// sample-begin" || marker == "# sample-begin" {
                open.append((index + 2, []))
            } else if marker == "// sample-end" || marker == "# sample-end", let region = open.popLast() {
                regions.append(
                    SampleRegion(location: "Samples/\(file):\(region.line)", lines: normalized(region.lines)))
            } else {
                for i in open.indices { open[i].lines.append(line) }
            }
        }
        return regions
    }
}

/// `lines` without trailing spaces and without the indentation they all share.
func normalized(_ lines: [String]) -> [String] {
    let trimmed = lines.map { line in
        String(line.reversed().drop { $0 == " " || $0 == "\t" || $0 == "\r" }.reversed())
    }
    let indent = trimmed.filter { !$0.isEmpty }.map { $0.prefix { $0 == " " }.count }.min() ?? 0
    return trimmed.map { String($0.dropFirst(min(indent, $0.prefix { $0 == " " }.count))) }
}
