"""The deployment files agree with the bot: ``docker-compose.yml`` (PostgreSQL and shard
processes) and the ``Dockerfile``. No Docker daemon is needed: the compose file is read as YAML
(merge keys resolved as Compose resolves them) and every shard's environment is turned into the
bot's own ``Settings``, so a compose file that would start a bot refusing its configuration, two
processes running the same shard, or a shard nobody runs fails here rather than in production.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml  # type: ignore[import-untyped]

from bot.settings import Settings

ROOT = Path(__file__).resolve().parents[1]
COMPOSE = ROOT / "docker-compose.yml"
DOCKERFILE = ROOT / "Dockerfile"


def _compose() -> dict[str, Any]:
    loaded = yaml.safe_load(COMPOSE.read_text(encoding="utf-8"))
    assert isinstance(loaded, dict)
    return loaded


def _interpolate(value: str) -> str:
    """Compose's ``${NAME:-default}`` with nothing set in the environment: the default."""
    return re.sub(r"\$\{[A-Z_]+:-([^}]*)\}", r"\1", value)


def _shard_services() -> dict[str, dict[str, Any]]:
    services = _compose()["services"]
    return {
        name: spec for name, spec in services.items() if "SHARD_IDS" in spec.get("environment", {})
    }


def _settings(spec: dict[str, Any]) -> Settings:
    env = {key.lower(): _interpolate(str(value)) for key, value in spec["environment"].items()}
    # model_validate reads neither the environment nor a .env file: only the compose values.
    return Settings.model_validate({"discord_token": "token", **env})


def test_every_shard_runs_in_exactly_one_process() -> None:
    shards = _shard_services()
    assert len(shards) >= 2, "the compose file is the several-process example"
    settings = [_settings(spec) for spec in shards.values()]
    counts = {s.shard_count for s in settings}
    assert len(counts) == 1, f"every process must agree on SHARD_COUNT, got {counts}"
    (count,) = counts
    assert count is not None
    run = [shard for s in settings for shard in s.shards() or ()]
    assert sorted(run) == list(range(count)), (
        f"shards run: {sorted(run)}, want each of 0..{count - 1} once"
    )
    # Discord sends every DM interaction to shard 0: some process must run it.
    assert 0 in run


def test_shard_processes_share_one_postgresql_service() -> None:
    compose = _compose()
    for name, spec in _shard_services().items():
        settings = _settings(spec)
        assert settings.database_url is not None, f"{name}: shard processes need PostgreSQL"
        host = re.match(r"postgres(?:ql)?://[^@]*@([^:/]+)", settings.database_url)
        assert host is not None and host.group(1) in compose["services"], settings.database_url
        assert spec["depends_on"][host.group(1)]["condition"] == "service_healthy"
    urls = {_settings(spec).database_url for spec in _shard_services().values()}
    assert len(urls) == 1


def test_request_budgets_stay_inside_the_global_limit() -> None:
    settings = [_settings(spec) for spec in _shard_services().values()]
    total = sum(s.request_budget() for s in settings)
    assert 0 < total <= settings[0].global_requests_per_second


def test_health_checks_reach_each_process_metrics_port() -> None:
    published: list[str] = []
    for name, spec in _shard_services().items():
        settings = _settings(spec)
        assert settings.metrics_port is not None, f"{name}: the health check needs METRICS_PORT"
        assert settings.metrics_host == "0.0.0.0", (
            f"{name}: published ports need a non-loopback bind"
        )
        check = " ".join(spec["healthcheck"]["test"])
        assert f":{settings.metrics_port}/health" in check
        for port in spec.get("ports", []):
            host_side, container_side = str(port).rsplit(":", 1)
            assert int(container_side) == settings.metrics_port
            published.append(host_side)
    assert len(published) == len(set(published)), (
        f"two services publish the same host port: {published}"
    )


def test_dockerfile_copies_every_package_and_installs_the_project() -> None:
    text = DOCKERFILE.read_text(encoding="utf-8")
    for package in ("bot", "games", "storage"):
        assert re.search(rf"^COPY {package} \./{package}$", text, re.MULTILINE), package
    assert re.search(r"^RUN pip install [^\n]*\.(\s|$)", text, re.MULTILINE)
    assert 'ENTRYPOINT ["python", "-m", "bot"]' in text
    # The image's default database is SQLite on its volume: the single-process bot.
    default = re.search(r"DATABASE_PATH=(\S+)", text)
    assert default is not None
    assert Settings.model_validate({"database_path": default.group(1)}).database_url is None
    assert re.search(
        r'^VOLUME \["' + re.escape(str(Path(default.group(1)).parent)) + r'"\]', text, re.MULTILINE
    )


@pytest.mark.parametrize("name", sorted(_shard_services()))
def test_compose_builds_the_same_image_as_the_dockerfile(name: str) -> None:
    build = _shard_services()[name]["build"]
    context = build if isinstance(build, str) else build.get("context", ".")
    assert (COMPOSE.parent / context / "Dockerfile").resolve() == DOCKERFILE.resolve()


def test_the_benchmarks_production_interpreter_is_the_images_python() -> None:
    """``bench/load.py --bot-python production`` measures the bot on a CPython of the image's
    version built as the image's is (PGO and LTO): the version is read from this Dockerfile, and
    a build is taken for one only by what its configure arguments or origin say."""
    from bench.production_python import DISTRIBUTION_DIR, Interpreter, image_version

    version = image_version(DOCKERFILE)
    assert re.search(rf"^FROM python:{re.escape(version)}-slim$", DOCKERFILE.read_text(), re.M)
    pyenv = "'--prefix=/root/.pyenv/versions/3.11.7' '--enable-shared'"
    official = "'--enable-optimizations' '--enable-shared' '--with-lto'"
    debian = "'--enable-shared' '--prefix=/usr' '--with-computed-gotos'"
    local = Path("/usr/local/bin/python3.11")
    assert not Interpreter(local, "3.11.7", "cpython", pyenv).optimized_build
    assert Interpreter(local, "3.11.9", "cpython", official).optimized_build
    assert Interpreter(DISTRIBUTION_DIR / "python3.11", "3.11.2", "cpython", debian).optimized_build
    assert not Interpreter(local, "3.11.2", "cpython", debian).optimized_build
    assert Interpreter(local, "3.11.9", "cpython", official).minor == "3.11"
