import Foundation

/// Named steps of a multi-file write where the process may die, so that tests can kill it
/// exactly there and check that what it leaves can be finished or undone. The process
/// kills itself (SIGKILL: no cleanup, as a power cut or the OOM killer would) when
/// reaching the step the environment variable `POPOVER_GOLDENS_CRASH_AT` names; with the
/// variable unset, reaching a step costs one comparison.
public enum CrashPoint {
    public static let variable = "POPOVER_GOLDENS_CRASH_AT"

    private static let chosen: String? = getenv(variable).map { String(cString: $0) }

    public static func reach(_ step: String) {
        guard let chosen, chosen == step else { return }
        kill(getpid(), SIGKILL)
    }
}
