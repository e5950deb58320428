extension Bitmap {
    /// The bitmap as it displays with EXIF orientation `orientation`: turned and mirrored
    /// upright. Orientations 5 to 8 swap width and height.
    public func oriented(_ orientation: Orientation) -> Bitmap {
        if orientation == .up { return self }
        let w = width, h = height
        let outWidth = orientation.swapsAxes ? h : w
        let outHeight = orientation.swapsAxes ? w : h
        var result = Bitmap(width: outWidth, height: outHeight)
        pixels.withUnsafeBytes { sourceBytes in
            result.pixels.withUnsafeMutableBytes { destinationBytes in
                let source = sourceBytes.bindMemory(to: UInt32.self)
                let destination = destinationBytes.bindMemory(to: UInt32.self)
                for y in 0..<h {
                    let row = y * w
                    for x in 0..<w {
                        // Where stored pixel (x, y) lands when displayed.
                        let dx: Int, dy: Int
                        switch orientation {
                        case .up: (dx, dy) = (x, y)
                        case .upMirrored: (dx, dy) = (w - 1 - x, y)
                        case .down: (dx, dy) = (w - 1 - x, h - 1 - y)
                        case .downMirrored: (dx, dy) = (x, h - 1 - y)
                        case .leftMirrored: (dx, dy) = (y, x)
                        case .right: (dx, dy) = (h - 1 - y, x)
                        case .rightMirrored: (dx, dy) = (h - 1 - y, w - 1 - x)
                        case .left: (dx, dy) = (y, w - 1 - x)
                        }
                        destination[dy * outWidth + dx] = source[row + x]
                    }
                }
            }
        }
        return result
    }
}
