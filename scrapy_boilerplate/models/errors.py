"""The model layer's errors, apart so that every model module can raise them without importing the others."""


class NotFittedError(RuntimeError):
    """``clean`` was called on a model that has not been fitted (or loaded)."""


class ModelFormatError(ValueError):
    """A saved model is corrupt, of another model, or of an unsupported format version."""


class UnknownModelError(ValueError):
    """No model is registered under the requested name."""
