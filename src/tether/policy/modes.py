"""Session modes, as the policy names them (defined with the settings that can choose one)."""

from tether.settings.modes import DEFAULT_MODE, MODES, PolicyMode, is_mode

__all__ = ["DEFAULT_MODE", "MODES", "PolicyMode", "is_mode"]
