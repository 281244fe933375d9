"""Every history keeps its hand's identity (issue 41): a tracker de-duplicates hands by their
number and files them by their date, so 1,000 hands saved from ``play``, ``sim``, the card room
and a tournament, converted with ``croupier convert``, must be 1,000 hands with 1,000 numbers
and real dates. And the identity reads back from PHH as it was written."""

from __future__ import annotations

import asyncio
import json
import re
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path
from zoneinfo import ZoneInfo

from typer.testing import CliRunner

from croupier.cli import app
from croupier.history import load_phh, load_phhs
from croupier.history.identity import (
    HandIdentity,
    TournamentIdentity,
    identity_of,
    with_identity,
)
from server_harness import player, running
from test_server_play import play_hands

runner = CliRunner()
EAST = ZoneInfo("America/New_York")
HEADER = re.compile(
    r"^PokerStars Hand #(\d+): .* - (\d{4}/\d\d/\d\d \d{1,2}:\d\d:\d\d) UTC "
    r"\[(\d{4}/\d\d/\d\d \d{1,2}:\d\d:\d\d) ET\]$",
    re.M,
)


def _invoke(*args: str) -> str:
    done = runner.invoke(app, list(args))
    assert done.exit_code == 0, done.output
    return done.output


def _card_room_hands(folder: Path, count: int) -> None:
    """``count`` hands played in the card room, each downloaded as PHH."""

    async def main() -> None:
        async with running(str(folder / "room.db")) as server:
            alice = await player(server.url, "alice")
            bob = await player(server.url, "bob")
            table = await alice.create_table(
                {"game": "holdem", "rulebook": "rws", "seats": 6}, name="Alice NLHE"
            )
            await alice.sit(table, 5, 500)
            await bob.sit(table, 2, 500)
            await play_hands([alice, bob], table, count)
            rows = server.room.store.read(
                lambda c: c.exec_driver_sql(
                    "SELECT id FROM hands WHERE status = 'finished' ORDER BY id"
                ).all()
            )
            for (hand,) in rows:
                (folder / f"room-{hand}.phh").write_text(await alice.history(hand))

    asyncio.run(main())


def test_a_thousand_hands_from_every_source_convert_to_a_thousand_numbers_and_real_dates(
    tmp_path: Path,
) -> None:
    began = datetime.now(UTC).replace(microsecond=0) - timedelta(seconds=1)
    hands = tmp_path / "hands"
    hands.mkdir()
    _card_room_hands(hands, 4)
    plays = hands / "play.phhs"  # three sessions in one file
    _invoke("play", "--auto", "--hands", "30", "--seats", "3", "--seed", "1", "--save", str(plays))
    for seed in ("2", "3"):
        _invoke("play", "--auto", "--hands", "30", "--seats", "3", "--seed", seed,
                "--save", str(plays), "--append")  # fmt: skip
    _invoke("tournament", "--players", "9", "--table-size", "9", "--seed", "4",
            "--save-hands", str(hands / "tournament.phhs"))  # fmt: skip
    saved = len(list(hands.glob("room-*.phh")))
    saved += sum(len(load_phhs(path)) for path in hands.glob("*.phhs"))
    _invoke("sim", "--hands", str(1000 - saved), "--seats", "6", "--save",
            str(hands / "sim.phhs"))  # fmt: skip
    text = tmp_path / "all.txt"
    _invoke("convert", str(hands), "--to", "pokerstars", "--output", str(text))
    headers = HEADER.findall(text.read_text(encoding="utf-8"))
    assert len(headers) == 1000
    numbers = {int(number) for number, _, _ in headers}
    assert len(numbers) == 1000  # a tracker keeps all of them
    latest = datetime.now(UTC) + timedelta(days=2)  # the tournament's clock runs ahead
    for _, utc, eastern in headers:
        when = datetime.strptime(utc, "%Y/%m/%d %H:%M:%S").replace(tzinfo=UTC)
        assert began <= when <= latest
        east = datetime.strptime(eastern, "%Y/%m/%d %H:%M:%S").replace(tzinfo=EAST)
        assert east == when
    # OHH too, with the real start and the hand's number (the card room's and play's hands)
    ohh = tmp_path / "some.ohh"
    some = [str(path) for path in sorted(hands.glob("room-*.phh"))] + [str(plays)]
    _invoke("convert", *some, "--to", "ohh", "--output", str(ohh))
    objects = [json.loads(chunk) for chunk in re.split(r"(?<=\})\n(?=\{)", ohh.read_text())]
    games = [o["ohh"]["game_number"] for o in objects]
    assert len(set(games)) == len(games) > 4 and {int(g) for g in games} <= numbers
    for o in objects:
        start = datetime.strptime(o["ohh"]["start_date_utc"], "%Y-%m-%dT%H:%M:%SZ")
        assert began <= start.replace(tzinfo=UTC) <= latest


def test_the_identity_reads_back_from_phh_as_written() -> None:
    base = load_phh(Path(__file__).parent / "fixtures" / "phh" / "phh_std_dwan_ivey.phh")
    seats = (3, 5, 1, 2, 4, 6, 7, 8, 9)[: base.player_count]
    identity = HandIdentity(
        number=218_833_655_123_000_042, table="Alice NLHE", seat_count=9, seats=seats,
        started=datetime(2026, 12, 7, 10, 10, 3, tzinfo=UTC),
        tournament=TournamentIdentity(77, 4, "Sunday", Decimal("10.00"), Decimal("1.00")),
    )  # fmt: skip
    history = with_identity(base, identity)
    again = identity_of(history)
    assert again == identity
    from croupier.history import dump_phh

    written = dump_phh(history)
    assert "hand = 218833655123000042" in written and 'time_zone = "UTC"' in written
    assert identity_of(load_phh(written)) == identity
    # a history written elsewhere, in its own zone: the same instant
    paris = identity_of(
        load_phh(written.replace('time_zone = "UTC"', 'time_zone = "Europe/Paris"'))
    )
    assert paris.started == datetime(2026, 12, 7, 9, 10, 3, tzinfo=UTC)


def test_convert_carries_the_identity_to_every_format(tmp_path: Path) -> None:
    """A tournament hand saved by ``croupier tournament``: PHH to PHH keeps every identity
    field (the hand's number among them, which history_from_hand's own argument once
    shadowed); the event log and OHH carry it too."""
    from croupier.events import HOUSE
    from croupier.history.convert import Format, convert

    saved = tmp_path / "t.phhs"
    _invoke("tournament", "--players", "4", "--table-size", "4", "--seed", "5",
            "--save-hands", str(saved))  # fmt: skip
    history = load_phhs(saved)[0]
    identity = identity_of(history)
    assert identity.tournament is not None and identity.tournament.level == 1
    again = load_phh(convert(history, Format.PHH, HOUSE))
    assert identity_of(again) == identity
    log = json.loads(convert(history, Format.JSONL, HOUSE))
    assert log["hand"] == identity.number and log["tournament"]["level"] == 1
    assert log["seats"] == list(identity.seats or ())
    stars = convert(history, Format.POKERSTARS, HOUSE).splitlines()
    assert stars[0].startswith(f"PokerStars Hand #{identity.number}: Tournament #")
    ohh = json.loads(convert(history, Format.OHH, HOUSE))["ohh"]
    assert ohh["game_number"] == str(identity.number) and ohh["table_size"] == 4
