"""The ``croupier`` command line. It holds no rules of its own: it calls the library."""

from __future__ import annotations

import json
from dataclasses import replace
from decimal import Decimal
from pathlib import Path
from typing import Annotated

import tomli
import typer
from rich.console import Console
from rich.text import Text

from croupier.cards import CardError, format_cards
from croupier.evaluate import Ranking, best_hand
from croupier.hand import Rules
from croupier.history import (
    Amount,
    HandHistory,
    PHHError,
    ReplayResult,
    chip_scale,
    load_phh,
    load_phhs,
    replay,
    standard_rules,
)
from croupier.history.extensions import OPTIONS, RULEBOOK, extension_rules
from croupier.rulebooks import RulebookError, load_rulebook

app = typer.Typer(
    help="croupier: poker dealt and adjudicated exactly as a casino rulebook says.",
    no_args_is_help=True,
    add_completion=False,
)
console = Console(highlight=False)


@app.callback()
def main() -> None:
    """croupier: poker dealt and adjudicated exactly as a casino rulebook says."""


@app.command()
def evaluate(
    cards: Annotated[str, typer.Argument(help="Hole cards (or the whole hand), e.g. 'Ah Kh'.")],
    board: Annotated[str, typer.Option(help="Community cards, e.g. 'Qh Jh Th 2c 3d'.")] = "",
    ranking: Annotated[
        str,
        typer.Option(
            help="high, short40, short36, short32, short20, low-a5, low-a5-8, low-27 or badugi."
        ),
    ] = "high",
    hole_cards_used: Annotated[
        int | None,
        typer.Option(help="Use exactly this many hole cards (2 for Omaha and Manila)."),
    ] = None,
) -> None:
    """Name the best hand in a set of cards.

    Example: croupier evaluate "Ah Kh" --board "Qh Jh Th 2c 3d"
    """
    try:
        hand = best_hand(cards, board, Ranking.parse(ranking), hole_cards_used=hole_cards_used)
    except CardError as error:
        console.print(f"[red]error:[/red] {error}")
        raise typer.Exit(2) from None
    console.print(f"[bold]{hand.description}[/bold]  {format_cards(hand.cards)}")
    if hand.hole_cards:
        console.print(f"hole cards used: {format_cards(hand.hole_cards)}")
    if not hand.qualifies:
        console.print("does not qualify for low (eight or better)")
    console.print(f"value {hand.value} ({hand.ranking.value}, {hand.ranking.clause})")


# --- croupier rules ------------------------------------------------------------------------------

rules_app = typer.Typer(
    help="The rulebooks: list them, or show one's settings with the clauses they come from.",
    no_args_is_help=True,
)
app.add_typer(rules_app, name="rules")


def _wide_console() -> Console:
    # Made per command, so that COLUMNS set for this run is honoured.
    return Console(highlight=False)


@rules_app.command("list")
def rules_list() -> None:
    """List the rulebooks shipped with croupier, with their games and structures.

    Example: croupier rules list
    """
    from croupier.rulebooks import load_rulebook, rulebook_names
    from croupier.rulebooks.render import rulebook_list

    _wide_console().print(rulebook_list(load_rulebook(name) for name in rulebook_names()))


@rules_app.command("show")
def rules_show(
    name: Annotated[
        str, typer.Argument(help="A rulebook name (see 'croupier rules list') or a .toml file.")
    ],
) -> None:
    """Show every setting of a rulebook with its clause, the table options and the engine gaps.

    Example: croupier rules show qld
    """
    from croupier.rulebooks import RulebookError, load_rulebook
    from croupier.rulebooks.render import rulebook_view

    out = _wide_console()
    try:
        book = load_rulebook(name)
    except RulebookError as error:
        out.print(Text.assemble(("error: ", "red"), str(error)), soft_wrap=True)
        raise typer.Exit(2) from None
    out.print(rulebook_view(book))


@app.command("play")
def play_command(
    game: Annotated[
        str, typer.Option(help="holdem, omaha, manila2, manila3, draw, stud5 or stud7.")
    ] = "holdem",
    rulebook: Annotated[
        str | None,
        typer.Option(help="Play by a rulebook: au-casino, rws, qld, cardroom, league or a file."),
    ] = None,
    structure: Annotated[
        str | None,
        typer.Option(
            help="no-limit, pot, half-pot, straddle, fixed or spread (default: the rulebook's, "
            "else no-limit)."
        ),
    ] = None,
    stakes: Annotated[
        str, typer.Option(help="'S/B': the blinds (stud: the ante and the bet), e.g. '1/2'.")
    ] = "1/2",
    ante: Annotated[int | None, typer.Option(help="Ante per player (stud: S).")] = None,
    deck: Annotated[
        int | None, typer.Option(help="Deck size: 52, 40, 36 or 32 (default: the game's own).")
    ] = None,
    rake: Annotated[str | None, typer.Option(help="Commission per pot, e.g. '5%'.")] = None,
    max_wager: Annotated[
        int | None, typer.Option(help="Table maximum bet or raise (spread limit: default 4 B).")
    ] = None,
    seats: Annotated[
        int | None, typer.Option(help="Seats at the table (default: bots + 1).")
    ] = None,
    bots: Annotated[int, typer.Option(help="Bots, in seats 2, 3, ...")] = 5,
    buy_in: Annotated[
        int | None, typer.Option(help="Chips each player sits down with (default: 100 x B).")
    ] = None,
    hands: Annotated[int, typer.Option(help="Hands to play; 0: until you quit.")] = 0,
    seed: Annotated[int | None, typer.Option(help="Seed for a repeatable game.")] = None,
    auto: Annotated[
        bool, typer.Option("--auto", help="Bots in every seat: watch them play.")
    ] = False,
    opponents: Annotated[
        str, typer.Option(help="Bot kinds, in turn: strength, calling, random.")
    ] = "strength,strength,calling,random",
    save: Annotated[
        str | None,
        typer.Option(help="Write each finished hand: PHH to a .phhs file, else JSON lines."),
    ] = None,
) -> None:
    """Play poker at the terminal against bots (or watch bots play with --auto).

    Type c (check/call), f (fold), b 50 / r 300 (bet or raise to), a (all-in), d 2 5 or
    d Ah Kd (draw), p (stand pat), ? (help); Ctrl-C ends the game.

    Example: croupier play --rulebook rws --stakes 1/2 --bots 5 --hands 10
    """
    from croupier.play import play_from_options

    code = play_from_options(
        game, structure, stakes, rulebook=rulebook, ante=ante, deck=deck, rake=rake,
        max_wager=max_wager, seats=seats, bots=bots, buy_in=buy_in, hands=hands, seed=seed,
        auto=auto, opponents=opponents, save=save, console=console,
    )  # fmt: skip
    if code:
        raise typer.Exit(code)


@app.command("sim")
def sim_command(
    rulebook: Annotated[
        str | None, typer.Option(help="A rulebook (au-casino, rws, qld, cardroom, league).")
    ] = None,
    game: Annotated[str, typer.Option(help="holdem, omaha, manila2, manila3, draw, stud5...")] = (
        "holdem"
    ),
    structure: Annotated[str | None, typer.Option(help="Betting structure.")] = None,
    stakes: Annotated[str, typer.Option(help="'S/B' blinds (stud: ante/bet).")] = "1/2",
    seats: Annotated[int, typer.Option(help="Players at the table.")] = 6,
    bots: Annotated[
        str, typer.Option(help="Bot kinds, repeated to fill the seats: random, calling, strength.")
    ] = "random",
    hands: Annotated[int, typer.Option(help="Hands to play.")] = 10_000,
    stack: Annotated[int | None, typer.Option(help="Chips per seat each hand (default 100 B).")] = (
        None
    ),
    workers: Annotated[int, typer.Option(help="Processes (same results for any count).")] = 1,
    seed: Annotated[int, typer.Option(help="Seed: the same seed gives the same summary.")] = 0,
    rake: Annotated[str | None, typer.Option(help="Commission per pot, e.g. '5%'.")] = None,
    save: Annotated[
        str | None, typer.Option(help="Stream every hand to this file (JSON lines).")
    ] = (None),
) -> None:
    """Bots play many independent hands; prints winnings per seat with 95% intervals.

    Example: croupier sim --rulebook rws --seats 6 --hands 100000 --workers 2
    """
    import time

    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
    from rich.table import Table as RichTable

    from croupier.games import GameError
    from croupier.play import book_rules, house_rules
    from croupier.rulebooks import RulebookError
    from croupier.sim import SimError, save_path, simulate

    kinds = [kind.strip() for kind in bots.split(",") if kind.strip()]
    lineup = [kinds[i % len(kinds)] for i in range(seats)] if kinds else []
    try:
        if rulebook is not None:
            rules = book_rules(rulebook, game, structure, stakes, rake=rake)
        else:
            rules = house_rules(game, structure or "no-limit", stakes, rake=rake)
        chips = stack if stack is not None else 100 * rules.betting.small_bet
        out = save_path(save)
        started = time.perf_counter()
        with Progress(
            TextColumn("[bold]sim"), BarColumn(), MofNCompleteColumn(),
            TextColumn("{task.fields[rate]}"), console=console, transient=True,
        ) as progress:  # fmt: skip
            task = progress.add_task("hands", total=hands, rate="")

            def advance(done: int) -> None:
                elapsed = time.perf_counter() - started
                completed = progress.tasks[0].completed + done
                progress.update(task, advance=done, rate=f"{completed / elapsed:,.0f} hands/s")

            result = simulate(
                rules, lineup, hands, stack=chips, seed=seed, workers=workers, save=out,
                on_progress=advance,
            )  # fmt: skip
        if out is not None:
            out.close()
    except (SimError, GameError, RulebookError, CardError, OSError) as error:
        console.print(f"[red]error:[/red] {error}")
        raise typer.Exit(2) from None
    elapsed = time.perf_counter() - started
    table = RichTable(title=f"{result.hands:,} hands · {result.hands / elapsed:,.0f} hands/s")
    for column in ("seat", "bot", "net", "per hand", "95% interval"):
        table.add_column(column, justify="right")
    for seat in result.seats:
        table.add_row(
            str(seat.seat), seat.bot, f"{seat.net:+,}", f"{seat.mean:+.3f}",
            f"{seat.mean - seat.half_width:+.3f} .. {seat.mean + seat.half_width:+.3f}",
        )  # fmt: skip
    console.print(table)
    console.print(
        f"commission {result.commission:,} · showdowns {result.showdown_rate:.1%} of hands"
    )


@app.command("replay")
def replay_command(
    path: Annotated[str, typer.Argument(help="A .phh or .phhs file, or a folder of them.")],
    rulebook: Annotated[
        str | None,
        typer.Option(help="Replay under a rulebook (its commission and odd-chip rules)."),
    ] = None,
    option: Annotated[
        list[str] | None,
        typer.Option(
            help="A table option KEY=VALUE, repeatable (keys: 'croupier rules show NAME'; "
            "without --rulebook, those of docs/phh-extensions.md)."
        ),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="One JSON object per hand on its own line.")
    ] = False,
) -> None:
    """Replay hand histories: every action must be legal in order, and recorded finishing
    stacks must match to the chip. Exit code 0 only when every hand does.

    Without --rulebook, PHH's own rules apply (no commission), with whatever the files' croupier
    fields say (docs/phh-extensions.md); --rulebook and --option override those fields.

    Example: croupier replay hands/ --rulebook au-casino --option commission_cap=3 --json
    """
    root = Path(path)
    if not root.exists():
        console.print(f"[red]error:[/red] no such file or folder: {path}", soft_wrap=True)
        raise typer.Exit(2)
    files = [root]
    if root.is_dir():
        files = sorted(f for f in root.rglob("*") if f.suffix in (".phh", ".phhs") and f.is_file())
        if not files:
            console.print(f"[red]error:[/red] no .phh or .phhs files in {path}", soft_wrap=True)
            raise typer.Exit(2)
    try:
        if rulebook is not None:
            load_rulebook(rulebook)
        options = dict(_option(text) for text in option or ())
    except (RulebookError, typer.BadParameter) as error:
        console.print(f"[red]error:[/red] {error}")
        raise typer.Exit(2) from None
    hands = failures = 0
    for file in files:
        try:
            histories = load_phhs(file) if file.suffix == ".phhs" else [load_phh(file)]
        except (PHHError, OSError) as error:
            failures += 1
            _report(
                as_json, {"file": str(file), "hand": None, "name": None, "ok": False,
                          "error": str(error)},
            )  # fmt: skip
            continue
        for index, history in enumerate(histories):
            hands += 1
            where = {"file": str(file), "hand": index + 1, "name": history.name}
            try:
                rules = _table_rules(history, rulebook, options)
            except PHHError as error:
                failures += 1
                _report(as_json, {**where, "ok": False, "error": str(error)})
                continue
            result = replay(history, rules)
            failures += not result.ok
            _report(as_json, {**where, **_replay_record(result)})
    if not as_json:
        verdict = "all replayed and matched" if not failures else f"{failures} failed"
        console.print(f"{hands} hand(s) in {len(files)} file(s): {verdict}")
    if failures:
        raise typer.Exit(1)


def _option(text: str) -> tuple[str, object]:
    """``KEY=VALUE``; the value read as TOML where it is TOML (``3``, ``true``, ``[1, 2]``),
    else as text (``5%``, ``percentage``)."""
    key, equals, value = text.partition("=")
    if not equals or not key.strip():
        raise typer.BadParameter(f"--option {text!r}: expected KEY=VALUE, e.g. commission_cap=3")
    try:
        parsed: object = tomli.loads(f"v = {value.strip()}", parse_float=Decimal)["v"]
    except (tomli.TOMLDecodeError, RecursionError, ValueError, ArithmeticError):
        parsed = value.strip()  # not TOML, or TOML nested or sized past reading: the text
    return key.strip(), parsed


def _table_rules(
    history: HandHistory, rulebook: str | None, options: dict[str, object]
) -> Rules | None:
    """The rules --rulebook and --option give a history: the same as writing them into its
    croupier fields (docs/phh-extensions.md), options without a rulebook changing the PHH rules
    replay() plays the variant by; None when neither is given."""
    if rulebook is None and not options:
        return None
    fields = dict(history.user_fields)
    if rulebook is not None:
        fields[RULEBOOK] = rulebook
    if options:
        given = fields.get(OPTIONS)
        fields[OPTIONS] = {**given, **options} if isinstance(given, dict) else options
    described = replace(history, user_fields=fields)
    return extension_rules(described, chip_scale(history), lambda: standard_rules(described))


def _amount(value: Amount) -> int | float | str:
    """An amount for JSON: an int when whole, 'inf' for an unlimited stack, else a float."""
    if isinstance(value, Decimal):
        if value.is_infinite():
            return "inf"
        return int(value) if value == value.to_integral_value() else float(value)
    return int(value)


def _replay_record(result: ReplayResult) -> dict[str, object]:
    return {
        "ok": result.ok,
        "finishing_stacks": [_amount(s) for s in result.finishing_stacks or ()],
        "pots": [
            {
                "amount": _amount(p.amount),
                "commission": _amount(p.commission),
                "eligible": list(p.eligible),
                "winners": list(p.winners),
                "shares": [_amount(s) for s in p.shares],
            }
            for p in result.pots
        ],
        "commission": _amount(result.commission),
        "error": None if result.error is None else str(result.error),
    }


def _report(as_json: bool, record: dict[str, object]) -> None:
    """One line per hand; hands are numbered from 1 in a .phh and a .phhs alike, a .phhs hand's
    table name shown beside its number when it differs (as PHHError names them)."""
    if as_json:
        print(json.dumps(record))
        return
    where = str(record["file"])
    if record["hand"] is not None:
        where += f" hand {record['hand']}"
        if record["name"] is not None and record["name"] != str(record["hand"]):
            where += f" [{record['name']}]"
    if record["ok"]:
        line = Text.assemble(("ok", "green"), f"   {where}")
    else:
        line = Text.assemble(("fail", "red"), f" {where}: {record['error']}")
    console.print(line, soft_wrap=True)


@app.command("equity")
def equity_command(
    hands: Annotated[
        list[str],
        typer.Argument(
            help="One hand per player, e.g. AhKh QsQd; ?? an unknown card, a lone ?? a random hand."
        ),
    ],
    board: Annotated[str, typer.Option(help="Community cards, e.g. 'Qh Jh 2c'.")] = "",
    dead: Annotated[str, typer.Option(help="Cards out of play.")] = "",
    game: Annotated[
        str, typer.Option(help="holdem, shortdeck, omaha, omaha8, manila2 or manila3.")
    ] = "holdem",
    deck: Annotated[
        int | None, typer.Option(help="Deck size where a game has two (manila3: 36 or 32).")
    ] = None,
    exact: Annotated[
        bool | None,
        typer.Option(
            "--exact/--monte-carlo",
            help="Enumerate every deal, or sample (default: enumerate up to 2,000,000 deals).",
        ),
    ] = None,
    trials: Annotated[
        int | None, typer.Option(help="Monte Carlo trials (default 1,000,000).")
    ] = None,
    seed: Annotated[
        int | None, typer.Option(help="Monte Carlo seed (default random, printed).")
    ] = None,
    threads: Annotated[
        int | None, typer.Option(help="Worker threads (default: all cores).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Each hand's chance to win, tie, and its share of the pot.

    Example: croupier equity AhKh QsQd --board "Qh Jh 2c"
    """
    from croupier.equity import equity

    try:
        result = equity(
            hands, board, dead, game, exact=exact, trials=trials, seed=seed, deck=deck,
            threads=threads,
        )  # fmt: skip
    except CardError as error:
        console.print(f"[red]error:[/red] {error}")
        raise typer.Exit(2) from None
    if as_json:
        print(json.dumps(result.to_dict()))
    else:
        console.print(str(result), markup=False)


BENCHMARKS = ("evaluate", "hands", "replay", "equity")


@app.command("bench")
def bench_command(
    names: Annotated[
        list[str] | None,
        typer.Argument(help="Which: evaluate, hands, replay, equity (default: all)."),
    ] = None,
) -> None:
    """Run the benchmarks in bench/ (ours and the peers' figures from the same run).

    Example: croupier bench evaluate equity
    """
    import subprocess
    import sys

    folder = Path(__file__).resolve().parents[2] / "bench"
    chosen = names or list(BENCHMARKS)
    unknown = [name for name in chosen if name not in BENCHMARKS]
    if unknown:
        console.print(f"[red]error:[/red] no benchmark {unknown[0]!r}: expected one of "
                      f"{', '.join(BENCHMARKS)}")  # fmt: skip
        raise typer.Exit(2)
    if not folder.is_dir():
        console.print(
            "[red]error:[/red] the benchmarks ship with the source tree (bench/), which this "
            "installation does not have: install croupier from a checkout with pip install -e ."
        )
        raise typer.Exit(2)
    failed = 0
    for name in chosen:
        console.print(f"[bold]── bench/{name}.py[/bold]")
        failed += (
            subprocess.run([sys.executable, str(folder / f"{name}.py")], check=False).returncode
            != 0
        )
    if failed:
        raise typer.Exit(1)
