extension ImageDecoder {
    /// Asks the probe for what `caption` shows (EXIF dates, camera, exposure; XMP titles
    /// and ratings) besides what it already reads: the catalog reads it once, with the
    /// headers, and a caption never reads a file. Fields no caption shows are not read.
    public mutating func readFields(for caption: CaptionMode) {
        let fields = caption.fieldsRead
        readsCaptureDate = readsCaptureDate || fields.date
        readsCamera = readsCamera || fields.camera
        readsExposure = readsExposure || fields.exposure
        readsXMP = readsXMP || fields.xmp
    }
}
