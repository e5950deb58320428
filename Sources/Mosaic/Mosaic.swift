// The facade: everything a program needs to make contact sheets, behind one import.
@_exported import MosaicImage
@_exported import MosaicLayout
@_exported import MosaicText
