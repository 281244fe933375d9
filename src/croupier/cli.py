"""The ``croupier`` command line. It holds no rules of its own: it calls the library."""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import inspect
import json
import os
import sys
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
import typer.core
from rich.console import Console
from rich.text import Text

from croupier.cards import format_cards
from croupier.evaluate import Ranking, best_hand
from croupier.history_commands import convert_command, replay_command, table_option
from croupier.play_rules import GAMES_HELP
from croupier.rulebooks import RulebookError, load_rulebook


def _click_errors() -> Any:
    """The click exceptions typer raises: its own copy of click from typer 0.2x, else click's."""
    name = "typer._click.exceptions" if importlib.util.find_spec("typer._click") else "click"
    return importlib.import_module(name)


def _reflow_help(command: Any) -> None:
    """Typer's rich help keeps the line breaks inside a docstring's paragraphs (the source's
    wrapping, not the terminal's): each paragraph of each command's help becomes one line,
    for the terminal to wrap."""
    if command.help:
        paragraphs = inspect.cleandoc(command.help).split("\n\n")
        command.help = "\n\n".join(" ".join(p.split()) for p in paragraphs)
    for param in getattr(command, "params", ()):
        _name_metavar(param)
    if hasattr(command, "get_help_option") and not hasattr(command, "_named_help"):
        command._named_help = True
        shown = command.get_help_option

        def help_option(ctx: Any) -> Any:
            option = shown(ctx)
            if option is not None and option.metavar is None:
                option.metavar = ""  # --help takes nothing: not "<bool>"
            return option

        command.get_help_option = help_option
    for sub in getattr(command, "commands", {}).values():
        _reflow_help(sub)


_SECONDS = {"clock", "bank", "pause", "seat_hold", "bot_delay", "hello_seconds", "session_seconds"}


def _name_metavar(param: Any) -> None:
    """What an option or argument takes, in words a person reads (FILE, N, SECONDS,
    KEY=VALUE, its own name) rather than the Python type typer shows (``<str>``,
    ``<list[str]>``); a flag takes nothing, so shows nothing (not ``<bool>``)."""
    kind = getattr(param, "param_type_name", "")
    if kind not in ("option", "argument") or param.metavar is not None:
        return
    if getattr(param, "is_flag", False) or getattr(param, "is_bool_flag", False):
        param.metavar = ""
        return
    annotation = getattr(getattr(param, "type_descriptor", None), "annotation", None)
    described = str(annotation or getattr(getattr(param, "type", None), "name", "")).lower()
    name = str(param.name or "value")
    if "path" in described or name in ("script", "save", "save_log", "save_hands", "output"):
        word = "FILE"
    elif "int" in described:
        word = "N"
    elif "float" in described:
        word = "SECONDS" if name in _SECONDS else "NUMBER"
    elif name == "option":
        word = "KEY=VALUE"
    else:
        word = name.upper().replace("_", "-")
    if kind == "argument":
        # An argument's column shows its type, not its metavar: say the word there.
        shown = f"{word}..." if param.nargs != 1 else word
        param.display_type_rich = lambda ctx: shown
        return
    param.metavar = word


class _OneLineErrors(typer.core.TyperGroup):
    """Usage errors (an unknown option, a value that is not a number) in one line on stderr,
    with exit code 2, rather than a box: every bad argument is one line."""

    def main(self, *args: Any, **kwargs: Any) -> Any:
        _reflow_help(self)
        errors = _click_errors()
        standalone = kwargs.pop("standalone_mode", True)
        kwargs["standalone_mode"] = False
        try:
            code = super().main(*args, **kwargs)
        except errors.ClickException as error:
            if not standalone:
                raise
            if type(error).__name__ == "NoArgsIsHelpError":  # the help, as asked
                error.show()
                sys.exit(error.exit_code)
            context = getattr(error, "ctx", None)
            where = context.command_path if context is not None else "croupier"
            hint = f" (see {where} --help)" if isinstance(error, errors.UsageError) else ""
            print(f"error: {error.format_message()}{hint}", file=sys.stderr)
            sys.exit(error.exit_code)
        except typer.Abort:
            if not standalone:
                raise
            sys.exit(130)
        if not standalone:
            return code
        sys.exit(code if isinstance(code, int) else 0)


app = typer.Typer(
    cls=_OneLineErrors,
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
        str | None,
        typer.Option(help="Use exactly this many hole cards (2 for Omaha and Manila)."),
    ] = None,
) -> None:
    """Name the best hand in a set of cards.

    Example: croupier evaluate "Ah Kh" --board "Qh Jh Th 2c 3d"
    """
    try:
        used = None if hole_cards_used is None else _whole("--hole-cards-used", hole_cards_used)
        hand = best_hand(cards, board, Ranking.parse(ranking), hole_cards_used=used)
    except ValueError as error:
        _fail(error)
    console.print(f"[bold]{hand.description}[/bold]  {format_cards(hand.cards)}")
    if hand.hole_cards:
        console.print(f"hole cards used: {format_cards(hand.hole_cards)}")
    if not hand.qualifies:
        console.print("does not qualify for low (eight or better)")
    console.print(f"value {hand.value} ({hand.ranking.value}, {hand.ranking.clause})")


def _fail(error: object) -> NoReturn:
    """A bad input: one line on the console, exit code 2."""
    console.print(Text.assemble(("error: ", "red"), str(error)), soft_wrap=True)
    raise typer.Exit(2)


def _whole(option: str, text: str, lowest: int = 1) -> int:
    """A whole number option, read here so a bad one is a one-line error."""
    try:
        value = int(text.replace("_", "").replace(",", ""))
    except ValueError:
        raise ValueError(f"{option} takes a whole number, got {text!r}") from None
    if value < lowest:
        raise ValueError(f"{option} takes a whole number of at least {lowest}, got {text!r}")
    return value


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
    from croupier.rulebooks import rulebook_names
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
    from croupier.rulebooks.render import rulebook_view

    out = _wide_console()
    try:
        book = load_rulebook(name)
    except RulebookError as error:
        out.print(Text.assemble(("error: ", "red"), str(error)), soft_wrap=True)
        raise typer.Exit(2) from None
    out.print(rulebook_view(book, out.width))


@app.command("play")
def play_command(
    game: Annotated[str, typer.Option(metavar="NAME", help=f"The game: {GAMES_HELP}.")] = "holdem",
    rulebook: Annotated[
        str | None,
        typer.Option(
            metavar="BOOK",
            help="Play by a rulebook: au-casino, rws, qld, cardroom, league or a file.",
        ),
    ] = None,
    structure: Annotated[
        str | None,
        typer.Option(
            metavar="STRUCTURE",
            help="no-limit, pot, half-pot, straddle, fixed or spread; one per round separated "
            "by commas; or a book's combination (qld: combination). Default: the rulebook's, "
            "else the game's usual one.",
        ),
    ] = None,
    stakes: Annotated[
        str,
        typer.Option(
            metavar="S/B", help="'S/B': the blinds (stud: the ante and the bet), e.g. '1/2'."
        ),
    ] = "1/2",
    ante: Annotated[
        int | None, typer.Option(metavar="CHIPS", help="Ante per player (stud: S).")
    ] = None,
    deck: Annotated[
        int | None,
        typer.Option(
            metavar="CARDS", help="Deck size: 52, 40, 36 or 32 (default: the game's own)."
        ),
    ] = None,
    rake: Annotated[
        str | None, typer.Option(metavar="PERCENT", help="Commission per pot, e.g. '5%'.")
    ] = None,
    max_wager: Annotated[
        int | None,
        typer.Option(
            metavar="CHIPS", help="Table maximum bet or raise (spread limit: default 4 B)."
        ),
    ] = None,
    seats: Annotated[
        int, typer.Option(metavar="N", help="Players at the table, you included.")
    ] = 6,
    bots: Annotated[
        str, typer.Option(metavar="KINDS", help="Bot kinds, in turn: strength, calling, random.")
    ] = "strength,strength,calling,random",
    buy_in: Annotated[
        int | None,
        typer.Option(
            metavar="CHIPS", help="Chips each player sits down with (default 100 B, at least 10 B)."
        ),
    ] = None,
    hands: Annotated[int, typer.Option(metavar="N", help="Hands to play; 0: until you quit.")] = 0,
    seed: Annotated[
        int | None, typer.Option(metavar="N", help="Seed for a repeatable game.")
    ] = None,
    auto: Annotated[
        bool, typer.Option("--auto", metavar="", help="Bots in every seat: watch them play.")
    ] = False,
    save: Annotated[
        str | None,
        typer.Option(
            metavar="FILE",
            help="Save the hands as you saw them; the suffix picks the format: .phh (one "
            "hand), .phhs (many), .jsonl (croupier's event log), .txt (PokerStars), .ohh.",
        ),
    ] = None,
    save_format: Annotated[
        str | None,
        typer.Option(
            "--format",
            metavar="NAME",
            help="The --save format whatever the suffix: phh, phhs, jsonl, pokerstars or ohh.",
        ),
    ] = None,
    overwrite: Annotated[
        bool, typer.Option("--overwrite", metavar="", help="Replace the --save file if it exists.")
    ] = False,
    append: Annotated[
        bool, typer.Option("--append", metavar="", help="Add to the --save file (.phhs, .jsonl).")
    ] = False,
    house: Annotated[
        bool,
        typer.Option(
            "--house",
            metavar="",
            help="Save the house's record: every card, the bots' too (with --auto the file "
            "keeps every card anyway: what the screen showed).",
        ),
    ] = False,
) -> None:
    """Play poker at the terminal against bots (or watch bots play with --auto).

    Type c (check/call), f (fold), b 50 / r 300 (bet or raise to), a (all-in), d 2 5 or
    d Ah Kd (draw), p (stand pat), ? (help); Ctrl-C ends the game.

    Example: croupier play --rulebook rws --stakes 1/2 --seats 6 --hands 10
    """
    from croupier.play import play_from_options

    code = play_from_options(
        game, structure, stakes, rulebook=rulebook, ante=ante, deck=deck, rake=rake,
        max_wager=max_wager, seats=seats, bots=bots, buy_in=buy_in, hands=hands, seed=seed,
        auto=auto, save=save, save_format=save_format, overwrite=overwrite, append=append,
        house=house, console=console,
    )  # fmt: skip
    if code:
        raise typer.Exit(code)


@app.command("serve")
def serve_command(
    db: Annotated[
        str, typer.Option(help="The database: a SQLite file, or postgresql://user@host/db.")
    ] = "croupier.db",
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    public_url: Annotated[
        str | None,
        typer.Option(
            help="The address people and the other server processes open this one at "
            "(default http://HOST:PORT; the machine's name when HOST is 0.0.0.0).",
        ),
    ] = None,
    forwarded_allow_ips: Annotated[
        str,
        typer.Option(
            help="The proxies (comma-separated addresses, * for any) whose X-Forwarded-For "
            "names the client: its address is what the per-address limits count. None by "
            "default (not even 127.0.0.1): a client's own address counts.",
        ),
    ] = "",
    demo: Annotated[
        bool, typer.Option(help="Seat a table of bots when the room has no table.")
    ] = True,
    clock: Annotated[float, typer.Option(help="Seconds each player has to act.")] = 30.0,
    bank: Annotated[float, typer.Option(help="Each seat's time bank, in seconds.")] = 60.0,
    pause: Annotated[float, typer.Option(help="Seconds between hands.")] = 3.0,
    seat_hold: Annotated[
        float,
        typer.Option(help="Seconds a seat won from a waiting list is held for a newcomer.", min=1),
    ] = 120.0,
    bot_delay: Annotated[float, typer.Option(help="A bot's thinking time, in seconds.")] = 1.0,
    rate: Annotated[
        float, typer.Option(help="Messages a second each connection may send (bursts of 2x).")
    ] = 20.0,
    tables_per_player: Annotated[
        int, typer.Option(help="Open tables a player may own (dealers and admins: any).", min=1)
    ] = 20,
    welcome: Annotated[
        int, typer.Option(help="Chips a new account is given (play money).", min=0)
    ] = 10_000,
    registrations_per_hour: Annotated[
        int, typer.Option(help="New accounts an address may make in an hour (0: any).", min=0)
    ] = 20,
    login_failures: Annotated[
        int, typer.Option(help="Failed logins an address may make in 10 minutes (0: any).", min=0)
    ] = 30,
    name_login_failures: Annotated[
        int,
        typer.Option(
            help="Failed logins for one account name, from any address, in 10 minutes (0: any).",
            min=0,
        ),
    ] = 100,
    hello_seconds: Annotated[
        float,
        typer.Option(help="Seconds a new WebSocket has to say hello before it is closed.", min=0.1),
    ] = 5.0,
    sockets_before_hello: Annotated[
        int,
        typer.Option(
            help="WebSockets an address may hold open before they say hello (0: any).", min=0
        ),
    ] = 64,
    session_seconds: Annotated[
        float,
        typer.Option(
            help="Seconds between reads of every connected token and role (a logout or role "
            "change made by another process reaches this one's sockets within it; 0: every "
            "message is checked against the database).",
            min=0,
        ),
    ] = 2.0,
    admin: Annotated[
        str | None,
        typer.Option(
            help="NAME of an admin account, made if missing, whose password is read from "
            "--admin-password-file, else the CROUPIER_ADMIN_PASSWORD environment variable, "
            "else asked for (never on the command line: the process list shows it).",
        ),
    ] = None,
    admin_password_file: Annotated[
        Path | None,
        typer.Option(help="A file holding the --admin account's password (its first line)."),
    ] = None,
) -> None:
    """Run the card room server: people and bots play over WebSockets (docs/protocol.md).

    It keeps everything in the database (SQLite in the working folder by default), resumes
    every hand after a restart, and stops cleanly on Ctrl-C.

    Example: croupier serve --port 8000
    """
    from rich.markup import escape

    from croupier.server import Options, check_port, public_address, serve
    from croupier.server.store.database import StoreError
    from croupier.server.store.startup import check_database, shown_database

    try:
        url = public_address(host, port, public_url)
    except ValueError as error:
        console.print(f"[red]error:[/red] {error}")
        raise typer.Exit(2) from None
    options = Options(
        public_url=url,
        clock=clock,
        bank=bank,
        pause=pause,
        seat_hold=seat_hold,
        bot_delay=bot_delay,
        demo=demo,
        rate=rate,
        burst=max(1, int(2 * rate)),
        tables_per_player=tables_per_player,
        welcome=welcome,
        registrations_per_hour=registrations_per_hour,
        login_failures=login_failures,
        name_login_failures=name_login_failures,
        hello_seconds=hello_seconds,
        sockets_before_hello=sockets_before_hello,
        session_seconds=session_seconds,
    )
    # Whatever stops the start is said in one line, before anything says where to open it.
    try:
        check_port(host, port)
        admins = check_database(db)
        if admin is not None:
            _make_admin(db, admin, _admin_password(admin, admin_password_file))
            admins = True
    except (StoreError, ValueError) as error:
        console.print(f"[red]error:[/red] {escape(str(error))}", soft_wrap=True)
        raise typer.Exit(2) from None
    where = shown_database(db) if "://" in db else str(Path(db).resolve())
    if not admins:
        console.print(
            "No admin account yet: start with `croupier serve --admin NAME` to make one (it "
            "asks for the password, or reads --admin-password-file), or to make an account "
            "registered in the page an admin; admins give roles and keep the cage.",
            soft_wrap=True,
        )
    console.print(
        f"croupier card room: open {url}/  (database {where}; Ctrl-C stops it)",
        soft_wrap=True,
    )
    with contextlib.suppress(KeyboardInterrupt):
        serve(db, host, port, options, forwarded_allow_ips=forwarded_allow_ips)
    console.print("croupier card room stopped")


def _admin_password(name: str, file: Path | None) -> str:
    """The --admin account's password: from the file, the environment or a prompt."""
    if ":" in name:
        raise ValueError(
            "--admin takes the account's NAME only: give its password in a file "
            "(--admin-password-file), in CROUPIER_ADMIN_PASSWORD, or when asked, never on the "
            "command line, where the process list shows it"
        )
    if file is not None:
        try:
            lines = file.read_text().splitlines()
        except OSError as error:
            raise ValueError(f"--admin-password-file: {error}") from None
        return lines[0] if lines else ""
    given = os.environ.get("CROUPIER_ADMIN_PASSWORD")
    if given is not None:
        return given
    if not sys.stdin.isatty():
        raise ValueError(
            "--admin: give the password in --admin-password-file or CROUPIER_ADMIN_PASSWORD "
            "(no terminal to ask on)"
        )
    return str(typer.prompt(f"password for the admin account {name}", hide_input=True))


def _make_admin(db: str, name: str, password: str) -> None:
    from croupier.server.store import accounts as auth
    from croupier.server.store.database import Store

    auth.check_new(name, password)
    store = Store(db)
    try:
        hashed = auth.hash_password(password)
        store.write_now(lambda conn: auth.make_admin(conn, name, hashed))
    finally:
        store.close()


@app.command("sim")
def sim_command(
    rulebook: Annotated[
        str | None,
        typer.Option(metavar="BOOK", help="A rulebook (au-casino, rws, qld, cardroom, league)."),
    ] = None,
    game: Annotated[str, typer.Option(metavar="NAME", help=f"The game: {GAMES_HELP}.")] = "holdem",
    structure: Annotated[
        str | None,
        typer.Option(
            metavar="STRUCTURE",
            help="Betting structure (default: the rulebook's, else the game's usual).",
        ),
    ] = None,
    stakes: Annotated[
        str, typer.Option(metavar="S/B", help="'S/B' blinds (stud: ante/bet).")
    ] = "1/2",
    ante: Annotated[
        int | None, typer.Option(metavar="CHIPS", help="Ante per player (stud: S).")
    ] = None,
    deck: Annotated[
        int | None, typer.Option(metavar="CARDS", help="Deck size (default: the game's own).")
    ] = None,
    max_wager: Annotated[
        int | None,
        typer.Option(
            metavar="CHIPS", help="Table maximum bet or raise (spread limit: default 4 B)."
        ),
    ] = None,
    seats: Annotated[int, typer.Option(metavar="N", help="Players at the table.")] = 6,
    bots: Annotated[
        str,
        typer.Option(
            metavar="KINDS",
            help="Bot kinds, repeated to fill the seats: random, calling, strength.",
        ),
    ] = "random",
    hands: Annotated[int, typer.Option(metavar="N", help="Hands to play.")] = 10_000,
    stack: Annotated[
        int | None,
        typer.Option(metavar="CHIPS", help="Chips per seat each hand (default 100 big blinds)."),
    ] = None,
    backend: Annotated[
        str | None,
        typer.Option(
            metavar="NAME",
            help="Where chunks of hands run: serial, process or ray (default: serial; "
            "process with --workers above 1).",
        ),
    ] = None,
    workers: Annotated[
        int | None,
        typer.Option(
            metavar="N",
            help="Workers (default: all cores; ray: the cluster's CPUs). Same result "
            "for any count.",
        ),
    ] = None,
    address: Annotated[
        str | None,
        typer.Option(metavar="ADDR", help="Ray cluster address (auto, ray://host:10001)."),
    ] = None,
    seed: Annotated[
        int, typer.Option(metavar="N", help="Seed: the same seed gives the same summary.")
    ] = 0,
    rake: Annotated[
        str | None, typer.Option(metavar="PERCENT", help="Commission per pot, e.g. '5%'.")
    ] = None,
    save: Annotated[
        str | None,
        typer.Option(
            metavar="FILE",
            help="Stream every hand to this file as a spectator saw it; the suffix picks the "
            "format: .phhs, .jsonl, .txt (PokerStars) or .ohh.",
        ),
    ] = None,
    save_format: Annotated[
        str | None,
        typer.Option(
            "--format",
            metavar="NAME",
            help="The --save format whatever the suffix: phhs, jsonl, pokerstars or ohh.",
        ),
    ] = None,
    overwrite: Annotated[
        bool, typer.Option("--overwrite", metavar="", help="Replace the --save file if it exists.")
    ] = False,
    append: Annotated[
        bool, typer.Option("--append", metavar="", help="Add to the --save file.")
    ] = False,
    house: Annotated[
        bool,
        typer.Option("--house", metavar="", help="Save the house's record: every bot's cards."),
    ] = False,
) -> None:
    """Bots play many independent hands: each seat's winnings, with 95% intervals.

    Prints what was simulated and each seat's winnings, per hand and in big blinds per 100
    hands. Ctrl-C prints the result so far.

    Example: croupier sim --rulebook rws --seats 6 --hands 100000 --backend process
    """
    from croupier.sim import sim_from_options

    code = sim_from_options(
        game, structure, stakes, rulebook=rulebook, ante=ante, deck=deck, rake=rake,
        max_wager=max_wager, seats=seats, bots=bots, hands=hands, stack=stack, seed=seed,
        backend=backend, workers=workers, address=address, save=save, save_format=save_format,
        overwrite=overwrite, append=append, house=house, console=console,
    )  # fmt: skip
    if code:
        raise typer.Exit(code)


app.command("replay")(replay_command)
app.command("convert")(convert_command)


@app.command("equity")
def equity_command(
    hands: Annotated[
        list[str],
        typer.Argument(
            help="One hand per player: cards (AhKh; ?? unseen, a lone ?? a random hand) or, with "
            "two hole cards, a range (QQ+,AKs  22-55  T9s-54s  AsKs  15%  QQ:0.5). Stud and "
            "draw hands may be short: the rest is still to come.",
        ),
    ],
    board: Annotated[str, typer.Option(help="Community cards, e.g. 'Qh Jh 2c'.")] = "",
    dead: Annotated[str, typer.Option(help="Cards out of play (folded up cards, discards).")] = "",
    game: Annotated[
        str,
        typer.Option(
            help="holdem, shortdeck, omaha, omaha8, manila2, manila3, draw, stud5, stud7, "
            "stud7-8, razz, draw27, triple-draw27 or badugi."
        ),
    ] = "holdem",
    deck: Annotated[
        str | None, typer.Option(help="Deck size where a game has several (manila3: 36 or 32).")
    ] = None,
    exact: Annotated[
        bool | None,
        typer.Option(
            "--exact/--monte-carlo",
            help="Enumerate every deal, or sample (default: enumerate when cheap).",
        ),
    ] = None,
    trials: Annotated[
        str | None,
        typer.Option(
            help="Monte Carlo trials (default 1,000,000; with --precision, the most to "
            "sample, default 100,000,000)."
        ),
    ] = None,
    precision: Annotated[
        str | None,
        typer.Option(help="Sample until every standard error is at most this, e.g. 0.1%."),
    ] = None,
    seed: Annotated[
        str | None, typer.Option(help="Monte Carlo seed (default random, printed).")
    ] = None,
    backend: Annotated[
        str, typer.Option(help="Where chunks run: serial, threads, process or ray.")
    ] = "threads",
    workers: Annotated[
        str | None, typer.Option(help="Workers (default: all cores; ray: the cluster's CPUs).")
    ] = None,
    address: Annotated[
        str | None, typer.Option(help="Ray cluster address (auto, ray://host:10001).")
    ] = None,
    chunk_trials: Annotated[
        str | None, typer.Option(help="Trials per Monte Carlo chunk (default: about 20 ms).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Each hand's chance to win, to split, and its share of the pot.

    Example: croupier equity AhKh QsQd --board "Qh Jh 2c";  croupier equity QQ+,AKs 15%
    """
    from croupier.equity import equity
    from croupier.executor import make_executor

    try:
        count = None if workers is None else _whole("--workers", workers)
        with make_executor(backend, count, address) as executor:
            result = equity(
                hands, board, dead, game, exact=exact, executor=executor,
                trials=None if trials is None else _whole("--trials", trials),
                seed=None if seed is None else _whole("--seed", seed, lowest=0),
                deck=None if deck is None else _whole("--deck", deck),
                precision=None if precision is None else _share("--precision", precision),
                chunk_trials=None if chunk_trials is None else _whole("--chunk-trials",
                                                                     chunk_trials),
            )  # fmt: skip
    except ValueError as error:
        _fail(error)
    if as_json:
        print(json.dumps(result.to_dict()))
    else:
        console.print(str(result), markup=False, soft_wrap=True)


def _share(option: str, text: str) -> float:
    """``0.1%`` or ``0.001``."""
    body = text.strip()
    try:
        value = float(body[:-1]) / 100 if body.endswith("%") else float(body)
    except ValueError:
        raise ValueError(f"{option} takes a share like 0.1% or 0.001, got {text!r}") from None
    return value


BENCHMARKS = ("evaluate", "hands", "replay", "equity", "scaling", "tournament")


@app.command("bench")
def bench_command(
    names: Annotated[
        list[str] | None,
        typer.Argument(help=f"Which: {', '.join(BENCHMARKS)} (default: all)."),
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
                      f"{', '.join(BENCHMARKS)}", soft_wrap=True)  # fmt: skip
        raise typer.Exit(2)
    if not folder.is_dir():
        console.print(
            "[red]error:[/red] the benchmarks ship with the source tree (bench/), which this "
            "installation does not have: install croupier from a checkout with pip install -e .",
            soft_wrap=True,
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


# --- croupier tournament -------------------------------------------------------------------------


@app.command("tournament")
def tournament_command(
    file: Annotated[
        str | None, typer.Argument(help="A tournament file (TOML: levels, payouts, options).")
    ] = None,
    players: Annotated[str, typer.Option(help="Bots entered.")] = "180",
    table_size: Annotated[
        str | None, typer.Option(help="Seats per table (default 9, or the file's).")
    ] = None,
    bots: Annotated[
        str, typer.Option(help="random, tight, calling or strength; a list is dealt in turn.")
    ] = "tight",
    seed: Annotated[str, typer.Option(help="The same seed gives the same tournament.")] = "0",
    seconds_per_hand: Annotated[
        str, typer.Option(help="Simulated seconds on the clock per round of hands.")
    ] = "120",
    save_log: Annotated[
        str | None, typer.Option(help="Write the tournament's event log here (JSON lines).")
    ] = None,
    save_hands: Annotated[
        str | None, typer.Option(help="Write every hand here (PHH collection, .phhs).")
    ] = None,
) -> None:
    """Run a multi-table tournament of bots under the league's rules, to the end.

    Example: croupier tournament --players 180 --table-size 9 --save-hands hands.phhs
    """
    from croupier.tournament.command import TournamentRun, run_tournament
    from croupier.tournament.settings import TournamentError

    try:
        request = TournamentRun.checked(
            file=file, players=players, table_size=table_size, bots=bots, seed=seed,
            seconds_per_hand=seconds_per_hand, save_log=save_log, save_hands=save_hands,
        )  # fmt: skip
        run_tournament(request, console)
    except TournamentError as error:
        _fail(error)
    except KeyboardInterrupt:
        _fail("interrupted: nothing saved")


# --- croupier dealer -----------------------------------------------------------------------------


@app.command("dealer")
def dealer_command(
    rulebook: Annotated[
        str, typer.Option(help="The house's book: au-casino, rws, qld, cardroom, league or a file.")
    ],
    game: Annotated[str, typer.Option(help="A game the book deals: holdem, stud7, ...")] = "holdem",
    structure: Annotated[
        str | None, typer.Option(help="no-limit, pot, fixed, ... (default: the book's).")
    ] = None,
    stakes: Annotated[str, typer.Option(help="The minimum wager, or the blinds: '5/10'.")] = "10",
    option: Annotated[
        list[str] | None, typer.Option(help="A table option KEY=VALUE (croupier rules show).")
    ] = None,
    stacks: Annotated[
        str | None, typer.Option(help="Seats' stacks in deal order, e.g. 1000,1000,1000,1000.")
    ] = None,
    denominations: Annotated[
        str | None, typer.Option(help="The table's chips, e.g. 5,25,100,500 (one-chip rules).")
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed for a reshuffle a ruling makes.")] = 0,
    script: Annotated[
        Path | None, typer.Option(help="Read the inputs from this file, one per line.")
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print each ruling, then the final state, as JSON.")
    ] = False,
) -> None:
    """The dealer's assistant: every irregularity ruled by the house's book, with its clause.

    A live hand is typed line by line, and each irregularity gets the book's ruling with its
    clause (docs/dealer.md).

    Type the cards as seen (? for one nobody sees), the actions (p3 raise 40), an irregularity
    by name (exposed p3 Qh, misdeal, out-of-turn p5 bet 40), choose KEY, undo, help.

    Example: croupier dealer --rulebook qld --game holdem --stacks 1000,1000,1000,1000
    """
    from croupier.irregularities.dealer import DealerError, open_session, run_script

    try:
        settings: dict[str, object] = {
            "book": rulebook, "game": game, "structure": structure, "seed": seed,
            "stakes": _whole("--stakes", stakes) if "/" not in stakes else
            tuple(_whole("--stakes", s) for s in stakes.split("/")),
            "options": dict(table_option(o) for o in option or ()),
            "stacks": [_whole("--stacks", s) for s in stacks.split(",")] if stacks else [],
            "denominations": [_whole("--denominations", d) for d in denominations.split(",")]
            if denominations else [],
        }  # fmt: skip
        if script is not None:
            session, records = run_script(script.read_text(encoding="utf-8"), **settings)
        else:
            session, records = open_session(**settings), []  # type: ignore[arg-type]
    except (ValueError, OSError) as error:
        _fail(error)
    if script is not None:
        for record in records:
            if as_json:
                print(json.dumps(record))
            elif "clause" in record:
                console.print(f"[bold]{record['clause']}[/bold] ({record['basis']}): "
                              f"{record['outcome']}", soft_wrap=True)  # fmt: skip
            else:
                why = record.get("refused") or record["error"]
                console.print(f"line {record['line']}: {why}", soft_wrap=True)
        print(json.dumps(session.summary()) if as_json else session.status())
        if any("error" in record for record in records):
            raise typer.Exit(1)
        return
    console.clear()
    console.print(session.status())
    while True:
        try:
            line = console.input("[bold]> [/bold]")
        except (EOFError, KeyboardInterrupt):
            return
        if line.strip() in ("q", "quit", "exit"):
            return
        try:
            outcome = session.enter(line)
        except DealerError as error:
            console.print(Text.assemble(("refused: ", "red"), str(error)), soft_wrap=True)
            continue
        console.clear()
        for ruling in outcome.rulings:
            console.print(f"[bold]{ruling.clause}[/bold] ({ruling.basis}): {ruling.outcome}")
            for choice in ruling.choices:
                console.print(f"  choose {choice.key}: {choice.text}")
        if outcome.text and not outcome.rulings:
            console.print(outcome.text)
        console.print(session.status())
