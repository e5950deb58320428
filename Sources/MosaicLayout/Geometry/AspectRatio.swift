/// Rounds half away from zero, as `Double.rounded()` does, to a whole pixel. Written out
/// because `rounded()` calls libm's `round`, which an executable linking only this module
/// does not get on Linux. `value` must be finite and below 2^52 in magnitude.
@inline(__always)
func roundedPixels(_ value: Double) -> Int {
    let whole = Int(value)  // truncates toward zero
    let fraction = value - Double(whole)  // exact below 2^52
    // A value a few rounding errors from a half is that half: 5 x 2.3 and 45 x 0.7 compute
    // as 11.499999999999998 and 31.499999999999996. A length a * h / w from pixel sizes
    // that is not a half misses one by at least 1 / 2w: 2^-18 for w up to 2^17, while the
    // slack stays under 2^-26 for lengths under 2^20.
    let slack = abs(value) * 0x1p-46 + 0x1p-40
    if fraction >= 0.5 - slack { return whole + 1 }
    if fraction <= -0.5 + slack { return whole - 1 }
    return whole
}

/// The largest rectangle of the given aspect ratio that fits inside `rect`, centred:
/// the equivalent of AVFoundation's `AVMakeRect(aspectRatio:insideRect:)`, in whole pixels.
///
/// - Parameters:
///   - aspectRatio: any size whose width / height is the wanted ratio (pixels or not);
///     both must be finite and positive, otherwise the result is `rect` itself.
///   - rect: the bounding rectangle.
/// - Returns: a rectangle inside `rect`, with the fitted dimension rounded to the nearest
///   pixel (at least 1 when `rect` is not empty) and the free space split evenly (the odd
///   pixel goes after).
public func aspectFit(aspectRatio: (width: Double, height: Double), insideRect rect: Rect) -> Rect {
    let (w, h) = aspectRatio
    guard w.isFinite, h.isFinite, w > 0, h > 0, !rect.isEmpty else { return rect }
    let scale = Swift.min(Double(rect.width) / w, Double(rect.height) / h)
    let fittedWidth = Swift.min(rect.width, Swift.max(1, roundedPixels(w * scale)))
    let fittedHeight = Swift.min(rect.height, Swift.max(1, roundedPixels(h * scale)))
    return Rect(
        x: rect.minX + (rect.width - fittedWidth) / 2,
        y: rect.minY + (rect.height - fittedHeight) / 2,
        width: fittedWidth, height: fittedHeight)
}

/// The smallest rectangle of the given aspect ratio that covers `rect`, centred on it
/// (it overhangs `rect` on one axis): what "crop to fill" scales an image to.
///
/// - Returns: `rect` itself when the ratio is not finite and positive or `rect` is empty.
public func aspectFill(aspectRatio: (width: Double, height: Double), coveringRect rect: Rect) -> Rect {
    let (w, h) = aspectRatio
    guard w.isFinite, h.isFinite, w > 0, h > 0, !rect.isEmpty else { return rect }
    let scale = Swift.max(Double(rect.width) / w, Double(rect.height) / h)
    let filledWidth = Swift.max(rect.width, roundedPixels(w * scale))
    let filledHeight = Swift.max(rect.height, roundedPixels(h * scale))
    return Rect(
        x: rect.minX - (filledWidth - rect.width) / 2,
        y: rect.minY - (filledHeight - rect.height) / 2,
        width: filledWidth, height: filledHeight)
}
