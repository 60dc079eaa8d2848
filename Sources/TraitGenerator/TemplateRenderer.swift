/// A value a template can insert or iterate.
enum TemplateValue: Sendable {
    case text(String)
    case flag(Bool)
    case list([[String: TemplateValue]])
}

/// Renders the small mustache-like language of `traitTemplate`.
struct TemplateRenderer: Sendable {
    private indirect enum Node: Sendable {
        case text(String)
        case value(String)
        case section(String, inverted: Bool, [Node])
    }

    private let nodes: [Node]

    init(_ template: String) {
        var remaining = Self.droppingStandaloneTagLines(template)[...]
        nodes = Self.parse(&remaining, closing: nil)
    }

    func render(_ context: [String: TemplateValue]) -> String {
        var output = ""
        Self.render(nodes, in: [context], into: &output)
        return output
    }

    /// Removes the line break after a tag that stands alone on its line, and its indentation.
    private static func droppingStandaloneTagLines(_ template: String) -> String {
        let lines = template.split(separator: "\n", omittingEmptySubsequences: false)
        return lines.indices.map { index -> String in
            let line = lines[index]
            let trimmed = line.trimmingWhitespace()
            let isStandaloneTag =
                trimmed.hasPrefix("{{") && trimmed.hasSuffix("}}") && "#^/".contains(trimmed.dropFirst(2).first ?? " ")
                && trimmed.dropFirst(2).firstRange(of: "{{") == nil
            if isStandaloneTag { return trimmed }
            return index == lines.index(before: lines.endIndex) ? String(line) : line + "\n"
        }
        .joined()
    }

    private static func parse(_ template: inout Substring, closing: String?) -> [Node] {
        var nodes: [Node] = []
        while !template.isEmpty {
            guard let open = template.firstRange(of: "{{") else {
                nodes.append(.text(String(template)))
                template = template[template.endIndex...]
                break
            }
            nodes.append(.text(String(template[..<open.lowerBound])))
            let close = template[open.upperBound...].firstRange(of: "}}")!
            let tag = template[open.upperBound..<close.lowerBound]
            template = template[close.upperBound...]
            switch tag.first {
            case "#", "^":
                let name = String(tag.dropFirst())
                nodes.append(.section(name, inverted: tag.first == "^", parse(&template, closing: name)))
            case "/":
                precondition(tag.dropFirst() == closing ?? "", "template: unexpected {{\(tag)}}")
                return nodes
            default:
                nodes.append(.value(String(tag)))
            }
        }
        precondition(closing == nil, "template: {{#\(closing ?? "")}} is never closed")
        return nodes
    }

    private static func render(_ nodes: [Node], in scopes: [[String: TemplateValue]], into output: inout String) {
        func lookup(_ name: String) -> TemplateValue? {
            scopes.reversed().lazy.compactMap { $0[name] }.first
        }
        for node in nodes {
            switch node {
            case .text(let text):
                output += text
            case .value(let name):
                guard case .text(let text) = lookup(name) else {
                    preconditionFailure("template: no text for {{\(name)}}")
                }
                output += text
            case .section(let name, let inverted, let body):
                switch lookup(name) {
                case .list(let items) where !inverted:
                    for item in items { render(body, in: scopes + [item], into: &output) }
                case .list(let items):
                    if items.isEmpty { render(body, in: scopes, into: &output) }
                case .flag(let isSet):
                    if isSet != inverted { render(body, in: scopes, into: &output) }
                case .text, nil:
                    preconditionFailure("template: {{#\(name)}} needs a flag or a list")
                }
            }
        }
    }
}
