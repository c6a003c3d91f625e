"""Issue 25: where a view's time goes. Every slot change is traced by stage (queued behind the
slot's previous change, coalescing, the pacer's turn, the slot's lock, the work's own stages,
the rest of the work) as ``view_<kind>_<stage>`` timings that ``bench/load.py`` prints; the gate
times each request by kind and a click's wait before its answer (``ack_handler``)."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

from bot import metrics
from bot.ui import http_gate
from bot.ui import payload as sending
from bot.ui.pacer import RequestPacer
from bot.ui.view_kit import SlotSet, ViewKit, stage_done
from tests.waiting import within_guard


def _kit() -> ViewKit:
    return ViewKit(SimpleNamespace(), RequestPacer(0))  # type: ignore[arg-type]


def _n(phase: str) -> int:
    return metrics.histograms[phase].count if phase in metrics.histograms else 0


async def test_a_slot_change_is_timed_by_stage_and_kind():
    kit = _kit()
    slots: SlotSet[int] = SlotSet(kit, "probe")
    release, started = asyncio.Event(), asyncio.Event()
    before = {s: _n(f"view_probe_{s}") for s in ("queued", "busy", "render", "sent", "total")}

    async def work(slot) -> None:
        started.set()
        await release.wait()
        stage_done("render")
        await asyncio.sleep(0.02)

    slot = slots.kick(1, work)
    await within_guard(started.wait())  # the first change is being shown...
    slots.kick(1, work)  # ...a second one waits behind it (queued)
    release.set()
    await kit.drain_tasks()
    assert slot.since is None  # nothing waits any more
    after = {s: _n(f"view_probe_{s}") for s in before}
    assert {s: after[s] - before[s] for s in before} == {
        "queued": 2,
        "busy": 2,
        "render": 2,
        "sent": 2,
        "total": 2,
    }
    samples = metrics.histograms["view_probe_queued"].samples
    assert samples[-1] >= 20  # the second change waited for the first one's work
    assert metrics.histograms["view_probe_sent"].samples[-1] >= 15  # after "render"
    total = metrics.histograms["view_probe_total"].samples[-2:]
    assert all(t >= 20 for t in total)


async def test_stage_done_outside_a_traced_work_times_nothing():
    names = set(metrics.histograms)
    stage_done("render")
    assert set(metrics.histograms) == names


def test_requests_are_named_by_kind():
    assert http_gate.request_kind("/interactions/1/tok/callback", False) == "callback"
    assert http_gate.request_kind("/webhooks/2/tok/messages/@original", False) == "webhook"
    assert http_gate.request_kind("/channels/1/messages", True) == "bot"
    assert http_gate.request_kind("/applications/1/commands", False) == "other"


class _Response:
    status = 200
    headers: dict[str, str] = {}


class _Sent:
    async def __aenter__(self) -> _Response:
        await asyncio.sleep(0.01)
        return _Response()

    async def __aexit__(self, *exc: object) -> None:
        return None


class _Session:
    def request(self, method: str, url: str, **kwargs: object) -> _Sent:
        return _Sent()


async def test_the_gate_times_requests_and_a_clicks_wait_for_its_answer():
    gate = http_gate.GatedSession(_Session(), lambda: RequestPacer(45))
    base = "http://127.0.0.1:1/api/v10"
    before = {p: _n(p) for p in ("ack_handler", "http_callback", "http_bot", "gate_wait")}

    async def click() -> None:
        http_gate.handling_started()
        await asyncio.sleep(0.02)  # the handler's work before its answer
        async with gate.request("POST", f"{base}/interactions/1/tok/callback"):
            pass
        async with gate.request("POST", f"{base}/interactions/1/tok/callback"):
            pass  # a second callback of the same task is not the click's answer again

    await asyncio.create_task(click())
    async with gate.request(
        "POST", f"{base}/channels/1/messages", headers={"Authorization": "Bot x"}
    ):
        pass
    after = {p: _n(p) for p in before}
    assert {p: after[p] - before[p] for p in before} == {
        "ack_handler": 1,
        "http_callback": 2,
        "http_bot": 1,
        "gate_wait": 1,
    }
    assert metrics.histograms["ack_handler"].samples[-1] >= 15
    assert metrics.histograms["http_callback"].samples[-1] >= 5


def test_every_stage_the_code_marks_has_its_metric_name_built_once():
    """The names are built once per kind (``view_kit.STAGES``): a stage marked anywhere in
    ``bot/`` must be one of them, and ``bench/load.py`` prints them all."""
    import re
    from pathlib import Path

    from bench.load import VIEW_STAGES
    from bot.ui.view_kit import STAGES

    root = Path(__file__).resolve().parents[2] / "bot"
    # a stage's end marked (``stage_done``, ``mark``), or its name read where it is observed
    # without a call (``_Stages``' first and last stages)
    marked = {
        m[1] or m[2]
        for path in root.rglob("*.py")
        for m in re.finditer(
            r'(?:stage_done|\.mark)\("([a-z_]+)"\)|names\["([a-z_]+)"\]', path.read_text()
        )
    }
    assert {"queued", "busy", "sent", "render", "total"} <= marked  # the scan finds them
    assert marked <= {*STAGES, "total"}
    assert set(VIEW_STAGES) == {*STAGES, "total"}


def test_a_clicks_answer_is_timed_apart_by_its_kind():
    """``ack_handler`` split by what answered the click: an update in place (JSON or with
    files), a deferred update, "thinking", a message (bench/load.py prints each)."""
    import discord.utils

    kinds = {
        kind: http_gate.answer_kind(discord.utils._to_json({"type": number, "data": {}}))
        for kind, number in (("message", 4), ("thinking", 5), ("deferred", 6), ("update", 7))
    }
    assert kinds == {k: k for k in kinds}
    assert http_gate.answer_kind(b'{"type":6}') == "deferred"
    assert http_gate.answer_kind(object()) == "files"  # a multipart form
    form, _ = sending.multipart([{"name": "payload_json", "value": '{"type":7}'}])
    assert http_gate.answer_kind(form) == "files"  # a multipart form's bytes (bot/ui/payload.py)
    assert http_gate.answer_kind(None) == "other"
    assert http_gate.answer_kind('{"data":{}}') == "other"


async def test_the_gate_times_a_deferred_answer_as_one():
    gate = http_gate.GatedSession(_Session(), lambda: RequestPacer(45))
    before = _n("ack_handler_deferred"), _n("ack_handler_update")

    async def click() -> None:
        http_gate.handling_started()
        async with gate.request(
            "POST", "http://127.0.0.1:1/api/v10/interactions/1/tok/callback", data='{"type":6}'
        ):
            pass

    await asyncio.create_task(click())
    assert (_n("ack_handler_deferred"), _n("ack_handler_update")) == (before[0] + 1, before[1])
