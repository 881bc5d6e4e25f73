import Foundation

/// Why a line could not be read unseen.
struct TerminalError: Error, CustomStringConvertible {
    var description: String
}

/// A line typed at the terminal without showing it (a PIN), after `prompt`; the terminal's echo
/// is put back afterwards, and the line ended on screen since the typed newline was not shown.
func readLineUnseen(prompt: String) throws(TerminalError) -> String? {
    var original = termios()
    guard tcgetattr(STDIN_FILENO, &original) == 0 else {
        throw TerminalError(description: "cannot read the terminal's settings to hide what is typed: \(String(cString: strerror(errno)))")
    }
    var hidden = original
    hidden.c_lflag &= ~tcflag_t(ECHO)
    guard tcsetattr(STDIN_FILENO, TCSAFLUSH, &hidden) == 0 else {
        throw TerminalError(description: "cannot hide what is typed: \(String(cString: strerror(errno)))")
    }
    print(prompt, terminator: "")
    fflush(nil)
    let line = readLine()
    print("")
    guard tcsetattr(STDIN_FILENO, TCSAFLUSH, &original) == 0 else {
        throw TerminalError(description: "cannot restore the terminal's echo: \(String(cString: strerror(errno)))")
    }
    return line
}
