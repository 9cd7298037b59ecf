"""Each class setting declared once (issue 28): safari_kit.classroom.settings.SETTINGS makes the command's options,
ClassSettings' defaults, Voilà's config and the teachers' guide's limits table; these tests hold them together."""
from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

pytest.importorskip("voila")

from safari_kit.classroom.config import voila_config  # noqa: E402
from safari_kit.classroom.settings import SETTINGS, ClassSettings, from_arguments, limits_table  # noqa: E402
from safari_kit.cli import build_parser  # noqa: E402

DOCS = Path(__file__).resolve().parents[2] / "docs" / "teachers.md"


def _parse(*options: str):
    return build_parser().parse_args(["class", "app.ipynb", *options])


def test_the_guides_limits_table_is_the_generated_one():
    """docs/teachers.md ("Class server") holds the table limits_table() writes, line for line."""
    assert limits_table() in DOCS.read_text(encoding="utf-8"), (
        "docs/teachers.md's limits table differs from safari_kit.classroom.settings.limits_table(): "
        "paste the generated table in its place (python -c 'from safari_kit.classroom.settings import "
        "limits_table; print(limits_table())')")


def test_every_setting_is_a_field_of_the_settings_in_order_with_its_declared_default():
    fields = dataclasses.fields(ClassSettings)
    assert [f.name for f in fields] == [s.name for s in SETTINGS]
    assert all(f.default == s.default for f, s in zip(fields, SETTINGS))
    assert from_arguments(_parse()) == ClassSettings()  # no option given: the declared defaults


def _other_value(setting):
    """A value of the flag that is not its default and is allowed."""
    if isinstance(setting.default, bool):  # a switch (--hub)
        return True
    if setting.low is None and setting.high is None:
        return {"ip": "10.1.2.3", "base_url": "/7b/", "results": "class-results", "session": "7b-monday",
                "teacher_group": "teachers-7b", "public_url": "https://hub.example.org/", "lang": "es"}[setting.name]
    value = setting.cli_default + 7
    return value if setting.high is None else min(value, setting.high)


@pytest.mark.parametrize("setting", SETTINGS, ids=lambda s: s.flag)
def test_every_flag_comes_back_as_its_setting_and_its_config_value(setting):
    given = _other_value(setting)
    hub = ("--hub",) if setting.name in ("teacher_group", "public_url") else ()  # they need --hub
    flags = (setting.flag,) if given is True else (setting.flag, str(given))
    settings = from_arguments(_parse(*hub, *flags))
    expected = given * setting.scale if setting.scale != 1 else given
    assert getattr(settings, setting.name) == expected
    others = {s.name: getattr(settings, s.name) for s in SETTINGS if s is not setting and not (hub and s.name == "hub")}
    assert others == {s.name: s.default for s in SETTINGS if s is not setting and not (hub and s.name == "hub")}
    if setting.config is not None:
        section, trait = setting.config
        assert voila_config(settings)[section][trait] == expected
    assert setting.help_text() in " ".join(build_parser()._subparsers._group_actions[0]
                                           .choices["class"].format_help().split())


def test_the_flags_the_guide_and_the_help_name_are_the_declared_ones():
    help_text = build_parser()._subparsers._group_actions[0].choices["class"].format_help()
    for setting in SETTINGS:
        assert setting.flag in help_text
    flags_in_table = {s.flag for s in SETTINGS if f"`{s.flag}`" in limits_table()}
    assert flags_in_table == {s.flag for s in SETTINGS} - {"--base-url", "--results", "--session", "--hub",
                                                           "--teacher-group", "--public-url"}


def test_a_flag_out_of_its_bounds_names_the_flag_and_the_bound(capsys):
    from safari_kit.cli import main

    assert main(["class", "app.ipynb", "--max-message-kib", "10"]) == 2
    err = capsys.readouterr().err
    assert "--max-message-kib" in err and "expected a number of KiB >= 64, got 10" in err
