"""The errors of the runtime: the same names and messages as ``prompt-build/runtime``."""
from typing import Optional


class BundleError(Exception):
    """A bundle that cannot be trusted to give the right prompt; the message names the file."""


class RenderError(Exception):
    """A dynamic section could not render; names the section and, where one is to blame, the variable."""

    def __init__(self, section: str, variable: Optional[str], message: str) -> None:
        super().__init__(message)
        self.section = section
        self.variable = variable
        self.message = message


class MissingVariableError(RenderError):
    """A required context variable was missing when its section rendered."""

    def __init__(self, section: str, variable: str) -> None:
        super().__init__(section, variable, f'dynamic section "{section}" needs the context variable "{variable}", which is missing')
