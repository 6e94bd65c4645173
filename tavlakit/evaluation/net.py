"""Which neural net evaluates positions: gnubg-nn's own, or GNU Backgammon's.

gnubg-nn ships weights of its own, close to gnubg 1.07's but not the same
(on gnubg's self-play positions the win chances agree within about 0.001,
the gammon chances differ by up to 0.005). The weights of an installed
gnubg can be used instead, its binary ``gnubg.wd`` (Debian:
:data:`GNUBG_WD`) or a text ``gnubg.weights``: most positions then
evaluate within 1e-4 of gnubg's own, so luck, errors and marks come out as
gnubg's. The net in use is a setting of the whole process (gnubg-nn has one
active net): :func:`use_net` sets it, :func:`net_in_use` says which.

:func:`evaluate` gives many boards' probabilities at once, every class in
one batch (:mod:`.net_inputs`: contact, crashed and race positions from
gnubg 1.07's own inputs and nets, or its pruning nets; bear-off positions
from gnubg's databases), with gnubg's binary weights and with gnubg-nn's
own; both files carry gnubg's six nets.
gnubg-nn's build counts a strong home board differently from gnubg 1.07 in
three of those nets' inputs (the shots at blots on the 1- and 2-points),
which moves about one contact position in twelve by up to 0.03 with
gnubg's weights; gnubg-nn's own weights were trained on gnubg's rule too
(gnubg-nn's source has it; so evaluated, their luck, errors and cube
errors on gnubg's reference records come out two to three times as close
to gnubg's). Other text weights, trained on gnubg-nn's inputs, are
evaluated with gnubg-nn's rule, as gnubg-nn evaluates them.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path
from typing import Any

import gnubg_nn  # type: ignore[import-untyped]
import numpy as np
import numpy.typing as npt

from ..i18n import _
from .keys import distinct_boards
from .net_inputs import (
    NET_NAMES,
    Evaluator,
    Net,
    classify,
    evaluator,
    nets_of,
    nets_of_wd,
    probabilities,
    race_backgammon,
)

#: Where Debian's gnubg package keeps gnubg's binary weights.
GNUBG_WD = Path("/usr/lib/gnubg/gnubg.wd")
#: gnubg-nn's own weights (its text format).
OWN = Path(gnubg_nn.__file__).parent / "data" / "gnubg.weights"

#: The order gnubg-nn's text format lists them in.
_TEXT = ("race", "prune race", "crashed", "prune crashed", "contact contact250", "prune contact")

_handles: dict[str, Any] = {}
_digests: dict[str, str] = {}
#: The six nets :func:`evaluate` batches, ready for the kernels, per weights file (gnubg-nn's own once
#: first needed; the contact nets' inputs follow gnubg-nn's home board rule for other text weights).
_batched: dict[str, Evaluator] = {}
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


def reload() -> None:
    """Load the weights in use again, so that gnubg-nn's evaluation cache
    starts empty (for timings: gnubg-nn still evaluates the race positions
    of gnubg's race-backgammon table)."""
    path = Path(_current)
    _handles[_current] = _net_load(path, _current) if _current == str(OWN) else _load(path, _current)
    gnubg_nn.net_use(_handles[_current])


def net_in_use() -> str | None:
    """The weights file in use; None for gnubg-nn's own."""
    return None if _current == str(OWN) else _current


def net_digest() -> str | None:
    """What identifies the weights in use (a digest of the file as loaded);
    None for gnubg-nn's own."""
    return None if _current == str(OWN) else _digests[_current]


def evaluate(
    boards: npt.NDArray[np.integer[Any]], *, prune: bool = False, classes: npt.NDArray[np.int64] | None = None
) -> npt.NDArray[np.float64]:
    """gnubg 1.07's 0-ply probabilities ``(n, 5)`` of the side on roll for
    many ``boards`` (n, 2, 25, as gnubg-nn takes them: the side on roll
    second), with the weights in use, in one batch (:mod:`.net_inputs`:
    gnubg 1.07's inputs, or gnubg-nn's for other text weights; bear-off
    positions from gnubg's databases; finished games as gnubg scores them);
    gnubg-nn evaluates, one by one, only the race boards whose backgammon
    chances gnubg takes from its table of race backgammons. ``prune``:
    by the pruning nets, as gnubg's look-ahead ranks plays; ``classes``:
    gnubg's class of each board where the caller has it (:func:`.moves.turns`).
    A board met more than once (a game's plays: one in ten) is evaluated once."""
    every: npt.NDArray[np.int8] = np.ascontiguousarray(boards, dtype=np.int8)
    if not len(every):
        return np.zeros((0, 5))
    rows, numbers = distinct_boards(every)
    b = every[rows]
    kinds = classify(b) if classes is None else classes[rows]
    probs = probabilities(b, kinds, evaluator_in_use(), gnubg_nn_table(b, kinds), prune=prune)
    return probs[numbers]


def gnubg_nn_table(
    boards: npt.NDArray[np.int8], classes: npt.NDArray[np.int64] | None = None
) -> npt.NDArray[np.float64] | None:
    """gnubg-nn's probabilities of the race boards whose backgammon chances
    gnubg takes from its table of race backgammons (NaN rows elsewhere;
    None if there are none; ``classes``: the boards' classes, where the caller has them)."""
    table = race_backgammon(boards, classes)
    if not table.any():
        return None
    given = np.full((len(boards), 5), np.nan)
    given[table] = [gnubg_nn.probabilities(board, 0) for board in boards[table].tolist()]
    return given


def evaluator_in_use() -> Evaluator:
    """The nets of the weights in use, ready for the kernels (gnubg-nn's
    own read when first needed)."""
    if _current not in _batched:
        _batched[_current] = evaluator(nets_of(_nets_of_text(OWN.read_text(encoding="ascii"))))
    return _batched[_current]


def _load(path: Path, shown: str) -> Any:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ValueError(_("{path}: cannot be read ({reason})").format(path=shown, reason=exc.strerror)) from None
    _digests[str(path)] = hashlib.sha256(data).hexdigest()[:16]
    if data.startswith(b"GNU Backgammon "):  # text weights: gnubg-nn's own, or others trained on gnubg-nn's inputs
        handle = _net_load(path, shown)
        nets = _nets_of_text(data.decode("ascii", "replace"))
        if any(name not in nets for name in NET_NAMES):
            reason = _("no contact, crashed or race net")
            raise ValueError(_("{path}: not weights gnubg-nn can use ({reason})").format(path=shown, reason=reason))
        own_rule = path.resolve() != OWN.resolve()
        _batched[str(path)] = evaluator(nets_of(nets), made=own_rule)
        return handle
    nets = nets_of_wd(data, shown)
    with tempfile.TemporaryDirectory() as folder:
        text = Path(folder) / "gnubg.weights"
        text.write_text(_text_of_nets(nets), encoding="ascii")
        handle = _net_load(text, shown)
    _batched[str(path)] = evaluator(nets_of(nets))
    return handle


def _net_load(path: Path, shown: str) -> Any:
    try:
        return gnubg_nn.net_load(os.fspath(path))
    except Exception as exc:  # gnubg-nn says what it did not like
        raise ValueError(_("{path}: not weights gnubg-nn can use ({reason})").format(path=shown, reason=exc)) from None


def _nets_of_text(text: str) -> dict[str, Net]:
    """The nets of gnubg-nn's text weights (a header line, then each net's
    name, shape and betas, and its weights in the binary file's order)."""
    lines = text.split("\n")
    nets: dict[str, Net] = {}
    at = 1
    while at < len(lines) and lines[at].strip():
        words = lines[at + 1].split()
        inputs, hidden, outputs = int(words[0]), int(words[1]), int(words[2])
        count = inputs * hidden + hidden * outputs + hidden + outputs
        weights = np.array(lines[at + 2 : at + 2 + count], dtype=np.float32)
        nets[lines[at].strip()] = Net.from_binary(
            (inputs, hidden, outputs), (float(words[4]), float(words[5])), weights
        )
        at += 2 + count
    return nets


def _text_of_nets(nets: dict[str, Net]) -> str:
    """gnubg's binary nets in gnubg-nn's text format (each net's shape and
    betas, then its weights in the binary file's order)."""
    lines = ["GNU Backgammon 1.01"]
    for name in _TEXT:
        net = nets[name]
        (inputs, hidden), outputs = net.hidden.shape, len(net.output_bias)
        weights = np.concatenate([net.hidden.ravel(), net.output.T.ravel(), net.hidden_bias, net.output_bias])
        header = f"{inputs} {hidden} {outputs} 0 {net.beta_hidden:.7f} {net.beta_output:.7f}"
        lines += [name, header, *(f"{w:.9g}" for w in weights.tolist())]
    return "\n".join(lines) + "\n"


__all__ = ["GNUBG_WD", "OWN", "evaluate", "net_digest", "net_in_use", "reload", "use_net"]
