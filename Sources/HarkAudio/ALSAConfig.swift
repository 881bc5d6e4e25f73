internal import CALSA

/// Owns a private ALSA configuration tree: a copy of the system configuration with extra
/// definitions (a test's `type file` PCM, a custom setup) loaded on top. A copy, because
/// loading into the shared global tree would leak the definitions into every later open.
final class ALSAConfig {
    let tree: OpaquePointer

    init(text: String, device: String) throws(AudioError) {
        try ALSAMessages.install()
        let mark = ALSAMessages.mark
        var top: OpaquePointer?
        var global: OpaquePointer?
        // Starting from the system tree lets the text refer to PCMs defined there ("default",
        // "hw"); a system without alsa.conf still gets a working empty tree, because the
        // built-in plugin types (null, file, plug...) need no configuration to be found.
        if snd_config_update_ref(&global) >= 0, let global {
            let status = snd_config_copy(&top, global)
            snd_config_unref(global)
            try ALSA.check(status, "snd_config_copy", device: device)
        } else {
            try ALSA.check(snd_config_top(&top), "snd_config_top", device: device)
        }
        guard let top else { throw ALSA.error("snd_config_top returned no tree", device: device) }

        var input: OpaquePointer?
        let opened = text.withCString { snd_input_buffer_open(&input, $0, text.utf8.count) }
        guard opened >= 0, let input else {
            snd_config_delete(top)
            throw ALSA.error("snd_input_buffer_open", device: device, code: opened)
        }
        let loaded = snd_config_load(top, input)
        let closed = snd_input_close(input)
        guard loaded >= 0 else {
            snd_config_delete(top)
            throw AudioError(.device, "ALSA device '\(device)': its configuration text does not parse: snd_config_load failed: \(ALSA.errorText(loaded))\(ALSA.said(since: mark, about: device))", underlying: loaded)
        }
        guard closed >= 0 else {
            snd_config_delete(top)
            throw ALSA.error("snd_input_close", device: device, code: closed)
        }
        tree = top
    }

    deinit {
        // Nothing useful can be done with a failure while tearing down.
        _ = snd_config_delete(tree)
    }
}

/// Error construction shared by the ALSA wrappers.
enum ALSA {
    static func errorText(_ code: Int32) -> String {
        guard let text = snd_strerror(code) else { return "ALSA error \(code)" }
        return String(cString: text)
    }

    /// What alsa-lib said about `device` since `mark` (see `ALSAMessages.mark`), as a suffix for
    /// an error message.
    static func said(since mark: Int, about device: String) -> String {
        ALSAMessages.since(mark, mentioning: device).map { " (alsa-lib: \($0.text))" } ?? ""
    }

    static func error(_ call: String, device: String, code: Int32) -> AudioError {
        AudioError(.device, "ALSA device '\(device)': \(call) failed: \(errorText(code))", underlying: code)
    }

    static func error(_ detail: String, device: String) -> AudioError {
        AudioError(.device, "ALSA device '\(device)': \(detail)")
    }

    static func check(_ status: Int32, _ call: String, device: String) throws(AudioError) {
        if status < 0 { throw error(call, device: device, code: status) }
    }
}
