"""The battery's file-fuzzing families: hostile PHH files and hostile rulebook files.

Each trial mutates a real file (the PHH fixtures, hands the engine wrote, the shipped rulebooks)
a few times over, at the level of bytes, lines, values and action words, and runs it through
what ``croupier replay`` and ``croupier rules show`` run. The promise: a result, or the module's
own error (``PHHError``, ``RulebookError``) naming the file, within the time limit.
"""

from __future__ import annotations

import contextlib
import importlib.resources
import io
import random
import re
import time
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING

import battery
from battery import Failure, Outcome, Sandbox, family, in_folder

if TYPE_CHECKING:
    from croupier.history import HandHistory

FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "phh"

# ---------------------------------------------------------------------------------------------
# Hostile pieces

NUMBERS = (
    "inf", "-inf", "+inf", "nan", "1e999999", "1e-999999", "1e9999999", "1e-9999999",
    "1e999999999", "9" * 5000, "9" * 4000, "1" + "0" * 30, "0", "-0", "-1", "0.0", "1e15",
    "999999999999999", "1000000000000000", "0.000000001", "0.00000001", "1.5", "1e-8", "2.5e-3",
    "123456789.123456789", "1_000", "0x10", "0o7", "1e308", "1.7976931348623157e309", "-1e-5",
    "3", "100", "25", "0.25", "1.0000000000000000000000000000001",
)  # fmt: skip
VALUES = (
    *NUMBERS, "true", "false", '"5"', '""', '"NT"', '"croupier"', "[]", "[1]", "[1, 2, 3]",
    "[inf, inf]", "[[1, 2]]", "{}", "{a = 1}", "1979-05-27", "07:32:00", "1979-05-27T07:32:00Z",
    '"\\u0000"', '"' + "x" * 5000 + '"', "[" + ", ".join(["1"] * 3000) + "]",
    "[" + ", ".join(["1e999999"] * 3) + "]",
)  # fmt: skip
WORDS = (
    "p0", "p1", "p2", "p9", "p99", "p" + "9" * 5000, "p1e5", "d", "db", "dh", "cbr", "cc", "f",
    "sm", "sd", "pb", "-", "??", "????", "AcAc", "Xx", "AsKsQsJsTs9s", "2c", "#", "# note",
    *NUMBERS[:20],
)  # fmt: skip


CARDS = [rank + suit for rank in "23456789TJQKA" for suit in "cdhs"]


def plausible_number(rng: random.Random) -> str:
    """A number a real hand might hold, to reach past the reader into the replay."""
    whole = rng.choice((0, 1, 2, 3, 5, 7, 10, 20, 50, 99, 100, 101, 200, 1000, 10**6, 10**14))
    if rng.random() < 0.2:
        return f"{whole}.{rng.choice(('5', '25', '01', '99999999'))}"
    return str(whole + rng.choice((-1, 0, 0, 1)))


def plausible_word(rng: random.Random) -> str:
    """An action's word a real hand might hold: cards, a player, an amount."""
    kind = rng.randrange(3)
    if kind == 0:
        return "".join(rng.sample(CARDS, rng.randint(1, 5)))
    if kind == 1:
        return f"p{rng.randint(1, 10)}"
    return plausible_number(rng)


def _nested(rng: random.Random) -> str:
    depth = rng.choice((10, 50, 399, 400, 401, 1000, 5000))
    kind = rng.randrange(3)
    if kind == 0:
        return "_deep = " + "[" * depth + "1" + "]" * depth
    if kind == 1:
        return "_deep = " + "{a = " * depth + "1" + "}" * depth
    return "_deep." + ".".join(["a"] * depth) + " = 1"


# How often each mutation of mutate_text is chosen: the big documents (9-11) are slow to read
# and only need a few trials.
_WEIGHTS = (10, 10, 10, 10, 10, 8, 6, 4, 4, 1, 1, 1, 4, 6)


def mutate_text(text: str, rng: random.Random, *, words: tuple[str, ...] = WORDS) -> str:
    """One random mutation of a TOML document's text."""
    lines = text.split("\n")
    choice = rng.choices(range(14), _WEIGHTS)[0]
    if choice == 0:  # a key's value replaced
        keyed = [i for i, line in enumerate(lines) if re.match(r"\s*[\w.\"-]+\s*=", line)]
        if keyed:
            i = rng.choice(keyed)
            key = lines[i].split("=", 1)[0]
            lines[i] = f"{key}= {rng.choice(VALUES)}"
    elif choice in (1, 2):  # a number replaced: hostile, or one a real hand might hold
        numbers = list(re.finditer(r"(?<![\w.])\d+(\.\d+)?", text))
        if numbers:
            found = rng.choice(numbers)
            number = rng.choice(NUMBERS) if choice == 1 else plausible_number(rng)
            return text[: found.start()] + number + text[found.end() :]
    elif choice in (3, 4):  # a word inside a string (an action's amount, player or cards)
        strings = list(re.finditer(r'"([^"\\\n]*)"', text))
        if strings:
            found = rng.choice(strings)
            parts = found.group(1).split(" ")
            word = rng.choice(words) if choice == 3 else plausible_word(rng)
            parts[rng.randrange(len(parts))] = word
            if rng.random() < 0.2:
                parts.insert(rng.randrange(len(parts) + 1), rng.choice(words))
            return text[: found.start()] + '"' + " ".join(parts) + '"' + text[found.end() :]
    elif choice == 5:  # lines deleted, duplicated or swapped
        if len(lines) > 1:
            i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
            how = rng.randrange(3)
            if how == 0:
                del lines[i]
            elif how == 1:
                lines.insert(j, lines[i])
            else:
                lines[i], lines[j] = lines[j], lines[i]
    elif choice == 6:  # bytes changed: text that may not be UTF-8 comes as surrogates
        data = bytearray(text.encode("utf-8", "surrogateescape"))
        for _ in range(rng.randint(1, 4)):
            if data:
                data[rng.randrange(len(data))] = rng.choice((0, 0x80, 0xFF, 0xC3, 10, 34, 91))
        return data.decode("utf-8", "surrogateescape")
    elif choice == 7:  # cut short
        return text[: rng.randrange(len(text) + 1)]
    elif choice == 8:  # deep nesting
        lines.insert(rng.randrange(len(lines) + 1), _nested(rng))
    elif choice == 9:  # an array made huge
        arrays = [i for i, line in enumerate(lines) if re.match(r"\s*\w+\s*=\s*\[.*\]\s*$", line)]
        if arrays:
            i = rng.choice(arrays)
            key, _, value = lines[i].partition("=")
            body = value.strip()[1:-1]
            count = min(rng.choice((50, 1000, 20000)), BIGGEST // (len(body) + 2))
            lines[i] = f"{key}= [{', '.join([body] * count)}]"
    elif choice == 10:  # the actions repeated many times
        start = next((i for i, line in enumerate(lines) if line.startswith("actions")), None)
        if start is not None:
            end = next((i for i in range(start, len(lines)) if lines[i].startswith("]")), start)
            body = lines[start + 1 : end]
            size = sum(len(line) + 1 for line in body) + 1
            lines[start + 1 : end] = body * min(rng.choice((10, 200, 3000)), BIGGEST // size)
    elif choice == 11:  # a big document
        size = rng.choice((1 << 16, 1 << 20, 3 << 20))
        lines.append(f'_pad = "{"x" * size}"')
    elif choice == 12:  # a byte-order mark, CR line ends or NUL
        return rng.choice(("\ufeff" + text, text.replace("\n", "\r\n"), text + "\0"))
    else:  # a random key added
        key = rng.choice(("bogus", "_user", "variant", "min_bet", "starting_stacks", "seats"))
        lines.insert(rng.randrange(len(lines) + 1), f"{key} = {rng.choice(VALUES)}")
    return "\n".join(lines)


BIGGEST = 4 << 20  # a mutation that makes a document larger than this is not kept


def mutated(text: str, rng: random.Random, **kwargs: tuple[str, ...]) -> bytes:
    for _ in range(rng.choice((1, 1, 2, 3))):
        again = mutate_text(text, rng, **kwargs)
        text = again if len(again) <= BIGGEST else text
    return text.encode("utf-8", "surrogateescape")


# ---------------------------------------------------------------------------------------------
# PHH


def phh_sources(seed: int) -> list[tuple[str, str]]:
    """(file name, text): the fixtures, and hands the engine played and wrote: one per PHH
    variant, one per rulebook game with the book's croupier fields (and its rake where it takes
    one), and a .phhs of some of them."""
    from croupier.history import dump_phh, dump_phhs

    sources = [(path.name, path.read_text()) for path in sorted(FIXTURES.glob("*.phh*"))]
    played = engine_hands(seed)
    sources += [(name, dump_phh(history)) for name, history in played]
    some = random.Random(seed).sample([history for _, history in played], 5)
    return [*sources, ("engine.phhs", dump_phhs(some))]


def engine_hands(seed: int) -> list[tuple[str, HandHistory]]:
    from croupier.bots import RandomBot, play_hand
    from croupier.deck import Deck, SeededShuffler
    from croupier.hand import Hand, Rules
    from croupier.history import VARIANTS, HandHistory, history_from_hand, standard_rules
    from croupier.rulebooks import RulebookError, load_rulebook, rulebook_names
    from croupier.rulebooks.tables import book_table

    rng = random.Random(seed)
    made: list[tuple[str, HandHistory]] = []

    def play(name: str, rules: Rules, players: int, **write: object) -> None:
        stacks = [rng.choice((40, 100, 250)) for _ in range(players)]
        deck = Deck.shuffled(rules.deck, SeededShuffler(rng.randrange(1 << 30)))
        hand = Hand(rules, stacks, deck)
        play_hand(hand, [RandomBot() for _ in range(players)], rng)
        made.append((name, history_from_hand(hand, **write)))  # type: ignore[arg-type]

    for code, variant in VARIANTS.items():
        players = rng.randint(2, 6)
        limits: dict[str, object] = {"antes": (1,) * players}
        if "bring_in" in variant.required:
            limits.update(bring_in=1, small_bet=2, big_bet=4)
        else:
            limits["blinds_or_straddles"] = (1, 2) + (0,) * (players - 2)
            fixed = "small_bet" in variant.required
            limits.update({"small_bet": 2, "big_bet": 4} if fixed else {"min_bet": 2})
        table = HandHistory(variant=code, starting_stacks=(100,) * players, **limits)  # type: ignore[arg-type]
        play(f"{code.replace('/', '-')}.phh", standard_rules(table), players)
    for book in rulebook_names():
        for game in load_rulebook(book).game_names:
            stud = game.startswith("stud") or game == "razz"
            stakes = "1/2" if stud else "5/10"
            # The history names the house options the table was dealt with (book_table's).
            rules, options = book_table(book, game, None, stakes)
            play(f"{book}-{game}.phh", rules, rng.randint(2, 5), rulebook=book, options=options)
            with contextlib.suppress(RulebookError):  # where the book takes a rake
                raked, options = book_table(book, game, None, stakes, rake="5%")
                play(f"{book}-{game}-rake.phh", raked, rng.randint(2, 5), rulebook=book,
                     options=options)
    return made


REPLAY_OPTIONS = (
    ["--rulebook", "rws"], ["--rulebook", "au-casino"], ["--rulebook", "qld"],
    ["--rulebook", "cardroom"], ["--rulebook", "league"], ["--option", "commission_cap=3"],
    ["--rulebook", "rws", "--option", "commission=percentage", "--option", "commission_rate=5%"],
    ["--rulebook", "qld", "--option", "commission_rate=1e999999999%"],
    ["--option", "odd_chip_rule=left-of-button"], ["--option", "bogus=1"], ["--json"],
)  # fmt: skip


def check_phh(payload: tuple[str, bytes, list[str] | None]) -> str | None:
    """What ``croupier replay FILE`` does, then writing each hand back; or the command itself
    with options (a list): None when it held."""
    name, data, options = payload
    if options is not None:
        return in_folder({name: data}, lambda path: _replay_command(path, options))
    return in_folder({name: data}, _check_phh)


def _replay_command(path: Path, options: list[str]) -> str | None:
    from typer.testing import CliRunner

    from croupier.cli import app

    result = CliRunner().invoke(app, ["replay", str(path), *options])
    error = result.exception
    if error is not None and not isinstance(error, SystemExit):
        return f"{type(error).__name__}: {battery._short(str(error))}\n{battery._where(error)}"
    if result.exit_code not in (0, 1, 2):
        return f"exit {result.exit_code}: {battery._short(result.output)}"
    return None


def _check_phh(path: Path) -> str | None:
    from croupier.history import PHHError, dump_phh, dump_phhs, load_phh, load_phhs, replay

    for strict in (True, False):
        try:
            histories = (
                load_phhs(path, strict=strict)
                if path.suffix == ".phhs"
                else [load_phh(path, strict=strict)]
            )
        except PHHError as error:
            if error.file != str(path):
                return f"unlocated: a PHHError that does not name the file: {error}"
            continue
        for history in histories:
            result = replay(history)
            if result.error is not None and result.error.file != str(path):
                return f"unlocated: a replay error that does not name the file: {result.error}"
            with contextlib.suppress(PHHError):
                dump_phh(history)
        with contextlib.suppress(PHHError):
            dump_phhs(histories)
    return None


@family("phh-fuzz")
def phh_fuzz(seed: int, seconds: float) -> Outcome:
    """Mutated PHH files (fixtures and engine-written hands) through load, replay and dump."""
    rng = random.Random(seed)
    sources = phh_sources(seed)
    outcome = Outcome()
    deadline = time.monotonic() + seconds
    with Sandbox(check_phh, battery.LIMIT) as sandbox:
        while time.monotonic() < deadline:
            name, text = rng.choice(sources)
            data = mutated(text, rng)
            options = rng.choice(REPLAY_OPTIONS) if rng.random() < 0.2 else None
            verdict = sandbox.run((name, data, options))
            if verdict is None:
                outcome.hold()
            else:
                note = f" (croupier replay FILE {' '.join(options)})" if options else ""
                outcome.fail(Failure(verdict + note, name, data))
    return outcome


# ---------------------------------------------------------------------------------------------
# Rulebooks

OPTION_VALUES = (
    "5%", "1e999999999%", "1e-999999999%", "1e999999999", "-1e999999999%", "9" * 5000 + "%",
    "1/" + "9" * 5000, "1" + "0" * 5000 + "/3", "inf%", "nan%", "1/0", "0/0", "-5%", "101%",
    "1e5%", "0.0000000001%", 10**4000, -(10**4000), 10**18, -1, 0, True, None, 2.5,
    float("inf"), float("nan"), Decimal("1e999999999"), Decimal("Infinity"), Decimal("NaN"),
    [1], {"a": 1}, "", "none", "unlimited", "percentage", "max-wager",
)  # fmt: skip


def rulebook_sources() -> list[tuple[str, str]]:
    folder = importlib.resources.files("croupier.rulebooks")
    return [
        (item.name, item.read_text(encoding="utf-8"))
        for item in sorted(folder.iterdir(), key=lambda item: item.name)
        if item.name.endswith(".toml")
    ]


Trial = tuple[dict[str, bytes], list[tuple[str, object]]]
"""A rulebook trial: the files (the first is loaded) and the table options to ask for."""


def check_rulebook(payload: tuple[Trial, bool]) -> str | None:
    (files, options), show = payload
    return in_folder(files, lambda path: _check_rulebook(path, options, show))


def _check_rulebook(path: Path, options: list[tuple[str, object]], show: bool) -> str | None:
    """What ``croupier rules show FILE`` (when ``show``: rendering takes 80 ms) and
    ``croupier sim --rulebook FILE`` do: load, render, and build every table's rules."""
    from rich.console import Console

    from croupier.rulebooks import RulebookError, load_rulebook
    from croupier.rulebooks.render import rulebook_view

    try:
        book = load_rulebook(path)
    except RulebookError as error:
        if not str(error).startswith(str(path)) and str(path.parent) not in str(error):
            return f"unlocated: a RulebookError that does not name the file: {error}"
        return None
    if show:
        Console(file=io.StringIO(), width=200).print(rulebook_view(book))
    for game in book.game_names:
        for structure in (None, *book.structures(game)):
            for stakes in (10, (5, 10)):
                with contextlib.suppress(RulebookError):
                    book.rules(game, structure, stakes=stakes, **dict(options))
    return None


def chain(rng: random.Random, base: str) -> Trial:
    """A chain of files each extending the next, some hundreds long, ending in a shipped book
    (or in a cycle)."""
    length = rng.choice((2, 10, 40, 100, 300, 1000))
    files: dict[str, bytes] = {}
    for index in range(length):
        parent = f"book{index + 1}.toml" if index + 1 < length else base
        if index + 1 == length and rng.random() < 0.3:
            parent = "book0.toml"  # a cycle
        files[f"book{index}.toml"] = f'name = "b{index}"\nextends = "{parent}"\n'.encode()
    return files, []


@family("rulebook-fuzz")
def rulebook_fuzz(seed: int, seconds: float) -> Outcome:
    """Mutated rulebook files, long extends chains and hostile table options through load,
    ``rules show`` and ``Rulebook.rules``."""
    rng = random.Random(seed)
    sources = rulebook_sources()
    names = [name.removesuffix(".toml") for name, _ in sources]
    keys = ("commission_rate", "commission_cap", "max_wager", "ante", "raise_cap", "big_bet",
            "chip_unit", "commission", "bogus")  # fmt: skip
    outcome = Outcome()
    deadline = time.monotonic() + seconds
    make: list[Callable[[], Trial]] = [
        lambda: ({"book.toml": mutated(rng.choice(sources)[1], rng, words=WORDS[20:])}, []),
        lambda: ({"book.toml": mutated(rng.choice(sources)[1], rng, words=WORDS[20:])}, []),
        lambda: chain(rng, rng.choice(names)),
        lambda: (
            {"book.toml": rng.choice(sources)[1].encode()},
            [(rng.choice(keys), rng.choice(OPTION_VALUES))],
        ),
    ]
    with Sandbox(check_rulebook, battery.LIMIT) as sandbox:
        while time.monotonic() < deadline:
            files, options = rng.choice(make)()
            verdict = sandbox.run(((files, options), rng.random() < 0.2))
            if verdict is None:
                outcome.hold()
            else:
                first = next(iter(files))
                extra = {k: v for k, v in files.items() if k != first}
                note = f" (options {options!r:.200})" if options else ""
                outcome.fail(Failure(verdict + note, first, files[first], extra))
    return outcome
