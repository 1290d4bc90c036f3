"""What the server, the lobby and the cross-game tests know of a game besides its rules.

A game ships one ``Manifest`` beside its ``Game`` (``server/games/<name>/manifest.py``) and
registers both (``register_game(GAME, MANIFEST)``). The manifest says:

- its name, title and the dictionary key of the title, and its seat range;
- its table options as a schema (``OptionSpec``: key, type, default, choices, the
  dictionary keys of the label, of each choice and of a help line): the server checks a new
  table's options against it, and the lobby draws the options from it (``/api/games``), so
  neither names a game;
- its page module (under ``web/static/js``), the prefix of its own dictionary keys and of
  its log templates, its score categories with their labels;
- a test profile: the option sets and seat counts the cross-game tests play, and how many
  commands a seeded random game of it takes at least.

A game registered without a manifest (a test double) gets one made from its ``Game``:
every default option is offered with the type of its default value.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from .errors import RuleError
from .game import Game
from .planning import PLANNING_MODES

OptionType = Literal["bool", "choice", "int"]
SHOWN = 40  # characters of a refused value an error message quotes: input may be hostile


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= SHOWN else text[: SHOWN - 1] + "…"


@dataclass(frozen=True)
class OptionSpec:
    """One table option as the lobby offers it and the server checks it.

    ``label`` (and ``help``, and ``choice_labels``, one per choice in order) are dictionary
    keys; the lobby shows their text in the reader's language.
    """

    key: str
    type: OptionType
    default: bool | int | str
    label: str
    choices: tuple[str, ...] = ()
    choice_labels: tuple[str, ...] = ()
    help: str | None = None
    minimum: int | None = None
    maximum: int | None = None

    def __post_init__(self) -> None:
        if self.type == "choice":
            if self.default not in self.choices or len(self.choice_labels) != len(self.choices):
                raise ValueError(f"option {self.key!r}: the default and a label per choice")
        elif self.type == "bool" and not isinstance(self.default, bool):
            raise ValueError(f"option {self.key!r}: a bool option's default is true or false")
        elif self.type == "int" and type(self.default) is not int:
            raise ValueError(f"option {self.key!r}: an int option's default is an integer")

    def check(self, value: Any) -> Any:
        """``value`` when this option may take it; RuleError('bad_option') saying why not."""
        if self.type == "bool":
            if not isinstance(value, bool):
                raise RuleError(
                    "bad_option", f"{self.key} must be true or false, got {_shown(value)}"
                )
        elif self.type == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                raise RuleError(
                    "bad_option", f"{self.key} must be a whole number, got {_shown(value)}"
                )
            low = self.minimum if self.minimum is not None else value
            high = self.maximum if self.maximum is not None else value
            if not low <= value <= high:
                raise RuleError(
                    "bad_option", f"{self.key} must lie between {low} and {high}, got {value}"
                )
        elif value not in self.choices:
            offered = ", ".join(self.choices)
            raise RuleError(
                "bad_option", f"{self.key} must be one of {offered}, not {_shown(value)}"
            )
        return value

    def public(self) -> dict[str, Any]:
        """The JSON the lobby reads (``/api/games``)."""
        out: dict[str, Any] = {
            "key": self.key,
            "type": self.type,
            "default": self.default,
            "label": self.label,
        }
        if self.type == "choice":
            out["choices"] = [
                {"value": v, "label": label}
                for v, label in zip(self.choices, self.choice_labels, strict=True)
            ]
        if self.help:
            out["help"] = self.help
        if self.type == "int":
            out["minimum"], out["maximum"] = self.minimum, self.maximum
        return out


def planning_option(ordered_label: str) -> OptionSpec:
    """The sealed-planning option every game on the engine's planning offers
    (``server.engine.planning``); ``ordered_label`` says in whose order the game plans."""
    return OptionSpec(
        key="planning",
        type="choice",
        default=PLANNING_MODES[0],
        label="lobby.planning",
        choices=PLANNING_MODES,
        choice_labels=("lobby.planning.simultaneous", ordered_label),
    )


@dataclass(frozen=True)
class ScoreCategory:
    """A column of the final score table: the ``breakdown`` key and its label's key."""

    key: str
    label: str


@dataclass(frozen=True)
class TestProfile:
    """What the cross-game tests play of a game: each option set at each seat count (none
    listed: every count the game allows), and how many commands a game takes at least."""

    option_sets: tuple[Mapping[str, Any], ...] = ({},)
    seat_counts: tuple[int, ...] = ()
    min_commands: int = 10


@dataclass(frozen=True)
class Manifest:
    """A game's description for the server, the lobby, the page and the tests."""

    name: str
    title: str
    min_seats: int
    max_seats: int
    options: tuple[OptionSpec, ...] = ()
    title_key: str = ""
    page_module: str = ""
    strings_prefix: str = ""
    log_prefix: str = "log."
    scores: tuple[ScoreCategory, ...] = ()
    test: TestProfile = field(default_factory=TestProfile)

    def __post_init__(self) -> None:
        keys = [o.key for o in self.options]
        if len(set(keys)) != len(keys):
            raise ValueError(f"{self.name}: an option listed twice in {keys}")
        if not 1 <= self.min_seats <= self.max_seats:
            raise ValueError(f"{self.name}: seats {self.min_seats}-{self.max_seats}")

    def defaults(self) -> dict[str, Any]:
        """Every option at its default."""
        return {o.key: o.default for o in self.options}

    def check_options(self, options: Any) -> dict[str, Any]:
        """The full options of a new table from the ones asked for; RuleError('bad_option').

        An option this game does not offer is refused, unless it is switched off (false or
        null): a lobby that shows another game's box sends it unticked.
        """
        if not isinstance(options, dict):
            raise RuleError("bad_option", f"options must be an object, got {_shown(options)}")
        specs = {o.key: o for o in self.options}
        unknown = sorted(k for k, v in options.items() if k not in specs and v not in (False, None))
        if unknown:
            known = ", ".join(specs) or "none"
            named = _shown(", ".join(unknown)).strip("'\"")
            raise RuleError("bad_option", f"{self.title} has no option {named} (known: {known})")
        chosen = {k: specs[k].check(v) for k, v in options.items() if k in specs}
        return {**self.defaults(), **chosen}

    def seat_counts(self) -> tuple[int, ...]:
        """The seat counts the tests play: the profile's, else every one allowed."""
        return self.test.seat_counts or tuple(range(self.min_seats, self.max_seats + 1))

    def public(self) -> dict[str, Any]:
        """The JSON ``/api/games`` serves for this game (docs/api.md)."""
        return {
            "name": self.name,
            "title": self.title,
            "title_key": self.title_key,
            "min_seats": self.min_seats,
            "max_seats": self.max_seats,
            "options": self.defaults(),
            "schema": [o.public() for o in self.options],
            "page_module": self.page_module,
            "strings_prefix": self.strings_prefix,
            "log_prefix": self.log_prefix,
            "scores": [{"key": s.key, "label": s.label} for s in self.scores],
        }


def _inferred(key: str, value: Any) -> OptionSpec:
    if key == "planning":
        return planning_option("lobby.planning.ordered")
    if isinstance(value, bool):
        return OptionSpec(key, "bool", value, f"option.{key}")
    if isinstance(value, int):
        return OptionSpec(key, "int", value, f"option.{key}")
    return OptionSpec(key, "choice", str(value), f"option.{key}", (str(value),), (f"option.{key}",))


def manifest_of(game: Game) -> Manifest:
    """A manifest made from ``game`` alone, for a game registered without one."""
    return Manifest(
        name=game.name,
        title=game.title,
        min_seats=game.min_seats,
        max_seats=game.max_seats,
        options=tuple(_inferred(k, v) for k, v in game.default_options().items()),
        page_module=f"{game.name}.js",
    )
