/// The settings several owners declare (layouts, output kinds), each once by name, with
/// the names of the owners that declare it, in the owners' order: what a help text lists.
func declaredOnce<Setting>(
    _ owners: [(name: String, settings: [Setting])], name: (Setting) -> String
) -> [(setting: Setting, owners: [String])] {
    var result: [(setting: Setting, owners: [String])] = []
    for owner in owners {
        for setting in owner.settings {
            if let index = result.firstIndex(where: { name($0.setting) == name(setting) }) {
                result[index].owners.append(owner.name)
            } else {
                result.append((setting, [owner.name]))
            }
        }
    }
    return result
}
