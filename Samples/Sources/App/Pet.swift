struct Pet: Sendable {
    var name: String
    let species: String
}

enum Personality: Sendable {
    case comical, serious
}
