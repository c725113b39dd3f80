extension Double {
    /// Rounded to `places` decimal places, for reports (`694.17`, `0.9989`).
    package func rounded(toPlaces places: Int) -> Double {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        return (self * scale).rounded() / scale
    }
}
