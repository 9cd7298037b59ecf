"""What both games share: errors, seeded chance, game records."""
from safari_kit.core.errors import CardDataError, IllegalActionError, RecordError, SafariKitError
from safari_kit.core.chance import Chance

__all__ = ["CardDataError", "IllegalActionError", "RecordError", "SafariKitError", "Chance"]
