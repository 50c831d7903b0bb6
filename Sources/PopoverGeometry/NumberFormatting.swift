/// Numbers in messages and tables read like the specification: "51", not "51.0";
/// fractions and non-finite values keep Swift's shortest form ("74.8", "nan", "inf").
/// (Case IDs spell numbers their own way: see `IDNumber` in the harness.)
public func plainNumber(_ value: Double) -> String {
    if value.isFinite, value == value.rounded(), abs(value) < 1e15 {
        return String(Int64(value))
    }
    return "\(value)"
}
