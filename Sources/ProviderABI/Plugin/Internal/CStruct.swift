/// Reading C structs whose size the other side of the ABI decides.
package enum CStruct {
    /// A zero-filled `T` with the first `min(size, sizeof(T))` bytes copied from `source`:
    /// fields the sender's (older) struct lacks read as zero, and nothing past its size is read.
    package static func copyPrefix<T>(of source: UnsafeRawPointer, size: Int, as type: T.Type) -> T {
        let capacity = MemoryLayout<T>.size
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: MemoryLayout<T>.alignment)
        defer { buffer.deallocate() }
        buffer.initializeMemory(as: UInt8.self, repeating: 0, count: capacity)
        buffer.copyMemory(from: source, byteCount: max(0, min(size, capacity)))
        return buffer.load(as: T.self)
    }

    /// The leading `uint32_t struct_size` of a struct.
    package static func declaredSize(of source: UnsafeRawPointer) -> Int {
        Int(source.loadUnaligned(as: UInt32.self))
    }
}
