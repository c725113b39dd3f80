/// Swift source with comments and string literals blanked out (newlines kept, so line numbers
/// stay), for scanning code without counting what its comments and messages mention.
enum SwiftCode {
    static func withoutCommentsAndStrings(_ source: String) -> String {
        enum State {
            case code, lineComment, blockComment(depth: Int), string(multiline: Bool)
            /// Inside `\(…)` of a string: code again, until its parentheses close.
            case interpolation(depth: Int, multiline: Bool)
        }
        var state = State.code
        var output = ""
        let characters = Array(source)
        var index = 0
        func next(_ text: String) -> Bool {
            let end = index + text.count
            return end <= characters.count && String(characters[index..<end]) == text
        }
        while index < characters.count {
            let character = characters[index]
            switch state {
            case .code:
                if next("//") {
                    state = .lineComment
                } else if next("/*") {
                    state = .blockComment(depth: 1)
                    index += 1
                } else if next("\"\"\"") {
                    state = .string(multiline: true)
                    index += 2
                } else if character == "\"" {
                    state = .string(multiline: false)
                } else {
                    output.append(character)
                }
            case .lineComment:
                if character == "\n" {
                    state = .code
                    output.append(character)
                }
            case .blockComment(let depth):
                if next("*/") {
                    state = depth == 1 ? .code : .blockComment(depth: depth - 1)
                    index += 1
                } else if next("/*") {
                    state = .blockComment(depth: depth + 1)
                    index += 1
                } else if character == "\n" {
                    output.append(character)
                }
            case .string(let multiline):
                if next("\\(") {
                    state = .interpolation(depth: 1, multiline: multiline)
                    index += 1
                    output.append("(")
                } else if character == "\\" {
                    index += 1
                } else if multiline ? next("\"\"\"") : character == "\"" {
                    state = .code
                    index += multiline ? 2 : 0
                    output.append("\"\"")
                } else if character == "\n" {
                    output.append(character)
                    if !multiline { state = .code }
                }
            case .interpolation(let depth, let multiline):
                output.append(character)
                if character == "(" {
                    state = .interpolation(depth: depth + 1, multiline: multiline)
                } else if character == ")" {
                    state =
                        depth == 1
                        ? .string(multiline: multiline) : .interpolation(depth: depth - 1, multiline: multiline)
                }
            }
            index += 1
        }
        return output
    }
}
