import ArgumentParser
import Foundation
import HarkAudio
import HarkImport
import HarkIntents
import HarkSpeech
import HarkStore
import HarkVoice

/// Exit codes from sysexits(3), so scripts can tell bad input from a missing device.
enum ExitStatus {
    static let dataError: Int32 = 65
    static let noInput: Int32 = 66
    static let unavailable: Int32 = 69
    static let software: Int32 = 70
    static let cannotCreate: Int32 = 73
    static let ioError: Int32 = 74
}

/// Writes a line to standard error.
func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

/// One sentence for a person, and the exit code that fits the failure.
func explain(_ error: any Error) -> (message: String, status: Int32) {
    switch error {
    case let error as ManifestError:
        return ("the apps could not be loaded:\n\(error.description)", ExitStatus.dataError)
    case let error as AudioError:
        return (error.description, ExitStatus.noInput)
    case let error as KeptSentencesError:
        return (error.description, ExitStatus.cannotCreate)
    case let error as RecognitionError:
        if case .modelLoad = error.code { return (error.description, ExitStatus.unavailable) }
        return (error.description, ExitStatus.dataError)
    case let error as VoiceError:
        if case .pronunciation = error.code { return (error.description, ExitStatus.dataError) }
        return (error.description, ExitStatus.unavailable)
    case let error as StoreError:
        switch error.code {
        case .unusable: return ("the shortcuts database: \(error.description)", ExitStatus.dataError)
        case .open: return (error.description, ExitStatus.cannotCreate)
        case .readOnly: return (error.description, ExitStatus.cannotCreate)
        case .notFound: return (error.description, ExitStatus.noInput)
        case .duplicate: return (error.description, ExitStatus.dataError)
        case .sqlite: return ("the shortcuts database: \(error.description)", ExitStatus.software)
        }
    default:
        return (String(describing: error), ExitStatus.software)
    }
}

/// Prints the error as Hark's own message and leaves with its code.
func fail(_ error: any Error) -> ExitCode {
    let (message, status) = explain(error)
    printError("hark: \(message)")
    return ExitCode(status)
}
