/// A colour a user gives a sheet (straight alpha: `#rrggbb`, `#rrggbbaa`, a CSS name,
/// `transparent`): the one colour type, `RGBA`, under the name the sheet's style uses.
public typealias Color = RGBA
