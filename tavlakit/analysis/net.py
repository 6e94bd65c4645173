"""Which neural net evaluates positions: gnubg-nn's own, or GNU Backgammon's.

gnubg-nn ships weights of its own, close to gnubg 1.07's but not the same
(on gnubg's self-play positions the win chances agree within about 0.001,
the gammon chances differ by up to 0.005). The weights of an installed
gnubg can be used instead, its binary ``gnubg.wd`` (Debian:
:data:`GNUBG_WD`) or a text ``gnubg.weights``: most positions then
evaluate within 1e-4 of gnubg's own, so luck, errors and marks come out as
gnubg's. The net in use is a setting of the whole process (gnubg-nn has one
active net): :func:`use_net` sets it, :func:`net_in_use` says which.
"""

from __future__ import annotations

import hashlib
import os
import struct
import tempfile
from pathlib import Path
from typing import Any

import gnubg_nn  # type: ignore[import-untyped]

from ..i18n import _

#: Where Debian's gnubg package keeps gnubg's binary weights.
GNUBG_WD = Path("/usr/lib/gnubg/gnubg.wd")
#: gnubg-nn's own weights (its text format).
OWN = Path(gnubg_nn.__file__).parent / "data" / "gnubg.weights"

#: gnubg's binary weights: a float32 magic number and version, then six nets,
#: each (inputs, hidden, outputs, trained: int32; two betas: float32) and its
#: float32 weights: hidden, output, hidden thresholds, output thresholds.
_MAGIC = struct.pack("<f", 472.3782)
#: The nets of a binary file in its order, with their shapes.
_BINARY = (
    ("contact contact250", (250, 128, 5)),
    ("race", (214, 128, 5)),
    ("crashed", (250, 128, 5)),
    ("prune contact", (200, 16, 5)),
    ("prune crashed", (200, 16, 5)),
    ("prune race", (200, 8, 5)),
)
#: The order gnubg-nn's text format lists them in.
_TEXT = ("race", "prune race", "crashed", "prune crashed", "contact contact250", "prune contact")

_handles: dict[str, Any] = {}
_digests: dict[str, str] = {}
_current: str = str(OWN)


def use_net(path: str | Path | None) -> None:
    """Evaluate with the weights in ``path`` from now on (gnubg's binary
    ``.wd`` or text weights; ``None``: gnubg-nn's own). Each net is loaded
    once; a file that is not weights is a ``ValueError`` saying so."""
    global _current
    key = str(OWN if path is None else Path(path).resolve())
    if key == _current:  # (gnubg-nn starts with its own)
        return
    if key not in _handles:
        _handles[key] = _load(Path(key), str(path))
    gnubg_nn.net_use(_handles[key])
    _current = key


def net_in_use() -> str | None:
    """The weights file in use; None for gnubg-nn's own."""
    return None if _current == str(OWN) else _current


def net_digest() -> str | None:
    """What identifies the weights in use (a digest of the file as loaded);
    None for gnubg-nn's own."""
    return None if _current == str(OWN) else _digests[_current]


def _load(path: Path, shown: str) -> Any:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ValueError(_("{path}: cannot be read ({reason})").format(path=shown, reason=exc.strerror)) from None
    _digests[str(path)] = hashlib.sha256(data).hexdigest()[:16]
    if data.startswith(b"GNU Backgammon "):  # gnubg's text weights
        return _net_load(path, shown)
    if not data.startswith(_MAGIC):
        raise ValueError(_("{path}: not neural-net weights (gnubg's gnubg.wd or gnubg.weights)").format(path=shown))
    with tempfile.TemporaryDirectory() as folder:
        text = Path(folder) / "gnubg.weights"
        text.write_text(_text_of_binary(data, shown), encoding="ascii")
        return _net_load(text, shown)


def _net_load(path: Path, shown: str) -> Any:
    try:
        return gnubg_nn.net_load(os.fspath(path))
    except Exception as exc:  # gnubg-nn says what it did not like
        raise ValueError(_("{path}: not weights gnubg-nn can use ({reason})").format(path=shown, reason=exc)) from None


def _text_of_binary(data: bytes, shown: str) -> str:
    """gnubg's binary weights in gnubg-nn's text format."""
    nets: dict[str, list[str]] = {}
    offset = 8  # after the magic number and the version
    for name, shape in _BINARY:
        try:
            *found, _trained = struct.unpack_from("<4i", data, offset)
            betas = struct.unpack_from("<2f", data, offset + 16)
        except struct.error:
            found = []
        if tuple(found) != shape:
            raise ValueError(_("{path}: not gnubg's binary weights (six nets of gnubg's shapes)").format(path=shown))
        inputs, hidden, outputs = shape
        count = inputs * hidden + hidden * outputs + hidden + outputs
        try:
            weights = struct.unpack_from(f"<{count}f", data, offset + 24)
        except struct.error:
            raise ValueError(_("{path}: gnubg's binary weights, cut short").format(path=shown)) from None
        header = f"{inputs} {hidden} {outputs} 0 {betas[0]:.7f} {betas[1]:.7f}"
        nets[name] = [name, header, *(f"{w:.9g}" for w in weights)]
        offset += 24 + 4 * count
    if offset != len(data):
        raise ValueError(_("{path}: not gnubg's binary weights (more after its six nets)").format(path=shown))
    return "\n".join(["GNU Backgammon 1.01", *(line for name in _TEXT for line in nets[name])]) + "\n"


__all__ = ["GNUBG_WD", "OWN", "net_digest", "net_in_use", "use_net"]
