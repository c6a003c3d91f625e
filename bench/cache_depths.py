"""How deep the bot's bounded caches must be to answer what they answer, in the real bot under
the load of ``bench/load.py`` (issue 29: are their bounds too large for what they buy?). In the
bot process each cache is made unbounded for the run and every access is recorded with its
distance: for the caches that drop the oldest written first (a presenter's event texts, the
inbound parser's people and DM channels), the entries written since the one asked for; for the
least-recently-used ones (``statejson.KeptCards``' games, ``bot.i18n._rendered``), the other
keys used since (for the catalogue texts: the calls since, an upper bound). A cache of N entries
answers the accesses under N: the report prints, per cache, the share of its accesses a bound
of N would answer, over the measured window. Distances grow with the tables being played at
once (each table's reuse comes after the other tables' moves): at T tables, a bound of N at
1,000 tables behaves as N * T / 1000 here.

    .venv/bin/python bench/cache_depths.py --tables 200 --window 60

Counts, not timings: the same on a loaded machine as long as the load keeps its pace.
Figures only; nothing is asserted.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import bench.load as load  # noqa: E402

# Run in the bot before ``bot.__main__``: records every access of the caches; resets its
# counts when MESA_BENCH_DEPTHS + ".start" appears (the window opens) and writes them to
# MESA_BENCH_DEPTHS when MESA_BENCH_DEPTHS + ".now" appears (the window's end).
PRELUDE = r"""
import os as _os
if _os.environ.get('MESA_BENCH_DEPTHS'):
    def _cache_depths():
        import collections, json, threading, time
        path = _os.environ['MESA_BENCH_DEPTHS']
        UNBOUNDED = 10 ** 9
        stats = {}

        def stat(name):
            return stats.setdefault(name, {'gaps': [], 'new': 0, 'changed': 0})

        # A presenter's event texts: written in order, the oldest written dropped first.
        import bot.ui.presenter as presenter
        texts_init, texts_text = presenter.EventTexts.__init__, presenter.EventTexts.text

        def init(self, write, kept=0):
            texts_init(self, write, UNBOUNDED)
            owner = getattr(write, '__self__', None)
            self._depth = ['event_texts ' + type(owner).__module__.split('.')[-2], 0, {}]

        def text(self, event, names, tr):
            locale = getattr(tr, 'locale', None)
            key = (id(event), locale)
            kept = self._texts.get(key)
            out = texts_text(self, event, names, tr)
            if locale is None:
                return out
            name, writes, at = self._depth
            s = stat(name)
            if self._texts.get(key) is kept:
                s['gaps'].append(writes - at[key])
            else:
                s['changed' if kept is not None and kept[0] is event else 'new'] += 1
                at[key] = writes
                self._depth[1] = writes + 1
            return out

        presenter.EventTexts.__init__, presenter.EventTexts.text = init, text

        # The inbound parser's people and DM channels: the oldest written dropped first.
        import bot.ui.inbound as inbound
        written = {}  # id of the dict -> [writes, key -> write index]
        kept_write = inbound._kept

        def kept(into, key, value, at_most):
            w = written.setdefault(id(into), [0, {}])
            w[1][key] = w[0]
            w[0] += 1
            kept_write(into, key, value, UNBOUNDED)

        inbound._kept = kept
        give, channel = inbound.LeanInteractions._give_person, inbound.LeanInteractions._kept_channel

        def give_person(self, interaction, guild, person):
            key = (guild.id, person['user']['id']) if guild is not None else (None, person['id'])
            before = self._people.get(key)
            give(self, interaction, guild, person)
            s = stat('inbound people')
            if self._people.get(key) is before:
                w = written[id(self._people)]
                s['gaps'].append(w[0] - w[1][key])
            else:
                s['changed' if before is not None else 'new'] += 1

        def kept_channel(self, raw):
            found = channel(self, raw)
            s = stat('inbound DM channels')
            key = raw.get('id')
            if found is not None:
                w = written[id(self._channels)]
                s['gaps'].append(w[0] - w[1][key])
            else:
                s['changed' if key in self._channels else 'new'] += 1
            return found

        inbound.LeanInteractions._give_person = give_person
        inbound.LeanInteractions._kept_channel = kept_channel

        # The card lists' JSON kept per game (its seed), least recently dumped dropped first.
        import games.core.statejson as statejson
        cards_init, cards_start = statejson.KeptCards.__init__, statejson.KeptCards.start

        def cards_init2(self, games):
            cards_init(self, UNBOUNDED)
            self._order = collections.OrderedDict()

        def start(self, game):
            s = stat('statejson.KeptCards games')
            order = self._order
            if game in order:
                distance = 0
                for other in reversed(order):
                    if other == game:
                        break
                    distance += 1
                s['gaps'].append(distance)
                order.move_to_end(game)
            else:
                s['new'] += 1
                order[game] = None
            cards_start(self, game)

        statejson.KeptCards.__init__, statejson.KeptCards.start = cards_init2, start

        # The catalogue texts (an lru_cache): calls since the key's last call.
        import bot.i18n as i18n
        rendered = i18n._rendered
        last_call = {}
        calls = [0]

        def counted(*key):
            s = stat('i18n._rendered texts (calls since)')
            seen = last_call.get(key)
            if seen is None:
                s['new'] += 1
            else:
                s['gaps'].append(calls[0] - seen)
            last_call[key] = calls[0]
            calls[0] += 1
            return rendered(*key)

        counted.cache_info = rendered.cache_info
        i18n._rendered = counted

        def watch():
            opened = False
            while True:
                time.sleep(0.25)
                if not opened and _os.path.exists(path + '.start'):
                    opened = True
                    for s in stats.values():
                        s['gaps'], s['new'], s['changed'] = [], 0, 0
                if _os.path.exists(path + '.now'):
                    with open(path, 'w') as out:
                        json.dump(stats, out)
                    _os.remove(path + '.now')

        threading.Thread(target=watch, name='cache-depths', daemon=True).start()

    _cache_depths()
"""

BOUNDS = (64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768)


class Window:
    """``bench/load.py``'s window probe: the bot counts from the window's start; at its end,
    it writes its counts."""

    def __init__(self, out: Path) -> None:
        self.out = out

    def start(self, pids: list[int], seconds: float) -> None:
        Path(str(self.out) + ".start").touch()

    async def stop(self) -> None:
        flag = Path(str(self.out) + ".now")
        flag.touch()
        for _ in range(240):  # a bound against a hang only
            if not flag.exists():
                break
            await asyncio.sleep(0.25)


def report(stats: dict[str, Any], tables: int) -> str:
    lines = [
        f"accesses in the window at {tables} tables, and the share a cache of N entries answers"
        f" (at 1,000 tables a bound of N behaves as N * {tables} / 1000 here):",
        "",
        "| cache | accesses | first seen | changed | " + " | ".join(map(str, BOUNDS)) + " |",
        "|---|---:|---:|---:|" + "---:|" * len(BOUNDS),
    ]
    for name, s in sorted(stats.items()):
        gaps = sorted(s["gaps"])
        total = len(gaps) + s["new"] + s["changed"]
        shares = []
        for bound in BOUNDS:
            answered = sum(1 for g in gaps if g < bound)
            shares.append(f"{answered / max(total, 1):.1%}")
        lines.append(
            f"| {name} | {total:,} | {s['new']:,} | {s['changed']:,} | " + " | ".join(shares) + " |"
        )
    return "\n".join(lines)


async def main(argv: list[str] | None = None) -> int:
    parser, own, passed = load.probe_parser(
        __doc__.split("\n\n")[0], sys.argv[1:] if argv is None else argv, global_rate="45"
    )
    args = parser.parse_args(own)
    load_args = load.probe_args(args, passed)
    load.BOT_LAUNCHER = PRELUDE + load.BOT_LAUNCHER
    with tempfile.TemporaryDirectory(prefix="mesa-depths-") as folder:
        out = Path(folder) / "depths.json"
        os.environ["MESA_BENCH_DEPTHS"] = str(out)
        load_args.window_probe = Window(out)
        bot_folder = Path(folder) / "bot"
        bot_folder.mkdir()
        started = time.time()
        result = await load.run_one(args.tables, load_args, bot_folder)
        stats = json.loads(out.read_text()) if out.exists() else {}
    print(report(stats, args.tables))
    print(
        f"{result['moves']} moves in the window; {result.get('moves_per_s')} moves/s; bot tree"
        f" {args.bot_root}; {time.time() - started:.0f} s in all"
    )
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
