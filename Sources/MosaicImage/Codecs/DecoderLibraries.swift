import CMosaicShims

/// The image libraries mosaic decodes with.
public enum DecoderLibraries {
    /// Their versions in one line ("libjpeg-turbo 2.1.5; libpng 1.6.39; ..."): the standard
    /// codecs' `cacheVersion`s include it.
    public static let versions = String(cString: mosaic_decoder_library_versions())
}
