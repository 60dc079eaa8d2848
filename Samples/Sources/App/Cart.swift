/// The tax a cart adds, in percent.
struct TaxRate: Sendable {
    let percent: Int
}

/// Totals prices with tax.
struct Cart {
    let taxRate: TaxRate
    func total(of price: Int) -> Int { price + price * taxRate.percent / 100 }
}
