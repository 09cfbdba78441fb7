/// Identifies a registration in one container: the service type and its optional name.
struct RegistrationKey: Hashable, Sendable {
    let type: ObjectIdentifier
    let name: String?

    init<Service>(_ type: Service.Type, name: String?) {
        self.type = ObjectIdentifier(type)
        self.name = name
    }
}
