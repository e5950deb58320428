extension Bitmap {
    /// The bitmap as it displays with EXIF orientation `orientation`: turned and mirrored
    /// upright. Orientations 5 to 8 swap width and height.
    public func oriented(_ orientation: Orientation) -> Bitmap {
        if orientation == .up { return self }
        let w = width, h = height
        let outWidth = orientation.swapsAxes ? h : w
        let outHeight = orientation.swapsAxes ? w : h
        // Stored pixel (x, y) lands at destination index origin + x * stepX + y * stepY:
        // the orientation's case is chosen once, not per pixel, and every pixel of the
        // result is written (no zero-fill first).
        let (origin, stepX, stepY): (Int, Int, Int)
        switch orientation {
        case .up: (origin, stepX, stepY) = (0, 1, outWidth)
        case .upMirrored: (origin, stepX, stepY) = (w - 1, -1, outWidth)
        case .down: (origin, stepX, stepY) = ((h - 1) * outWidth + w - 1, -1, -outWidth)
        case .downMirrored: (origin, stepX, stepY) = ((h - 1) * outWidth, 1, -outWidth)
        case .leftMirrored: (origin, stepX, stepY) = (0, outWidth, 1)
        case .right: (origin, stepX, stepY) = (h - 1, outWidth, -1)
        case .rightMirrored: (origin, stepX, stepY) = ((w - 1) * outWidth + h - 1, -outWidth, -1)
        case .left: (origin, stepX, stepY) = ((w - 1) * outWidth, -outWidth, 1)
        }
        let count = w * h * 4
        let turned = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            pixels.withUnsafeBytes { sourceBytes in
                guard count > 0, let target = buffer.baseAddress, let base = sourceBytes.baseAddress else { return }
                let source = base.assumingMemoryBound(to: UInt32.self)
                let destination = UnsafeMutableRawPointer(target).assumingMemoryBound(to: UInt32.self)
                for y in 0..<h {
                    let row = source + y * w
                    var at = origin + y * stepY
                    for x in 0..<w {
                        destination[at] = row[x]
                        at += stepX
                    }
                }
            }
            initialized = count
        }
        return Bitmap(width: outWidth, height: outHeight, pixels: turned) ?? Bitmap(width: outWidth, height: outHeight)
    }
}
