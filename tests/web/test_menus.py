"""An agent's settings as header menus: which options become menus, in which order, and how
they follow `config_option_update` and `current_mode_update`, whichever comes first."""

from __future__ import annotations

from acp.schema import (
    SessionConfigOptionBoolean,
    SessionConfigOptionSelect,
    SessionConfigSelectGroup,
    SessionConfigSelectOption,
    SessionMode,
    SessionModeState,
)

from tether.web.menus import SessionMenus, config_menus, session_menus
from tether.web.protocol import Menu, MenuChoice


def _select(
    option_id: str, category: str | None, current: str, *values: str
) -> SessionConfigOptionSelect:
    return SessionConfigOptionSelect(
        id=option_id,
        name=option_id.title(),
        category=category,  # type: ignore[arg-type]
        type="select",
        current_value=current,
        options=[SessionConfigSelectOption(value=v, name=v.title()) for v in values],
    )


MODES = SessionModeState(
    current_mode_id="ask",
    available_modes=[SessionMode(id="ask", name="Ask"), SessionMode(id="auto", name="Auto")],
)
OPTIONS = [
    _select("sandbox", None, "on", "on", "off"),
    _select("effort", "thought_level", "low", "low", "high"),
    _select("model", "model", "a", "a", "b"),
    _select("mode", "mode", "ask", "ask", "auto"),
    SessionConfigOptionBoolean(id="verbose", name="Verbose", type="boolean", current_value=True),
]


def _current(menus: tuple[Menu, ...]) -> dict[str, str]:
    return {m.id: m.current for m in menus}


def test_every_select_is_a_menu_mode_and_model_first_then_by_category() -> None:
    menus = config_menus(OPTIONS)
    # The boolean has no menu; categories keep the agent's order after mode and model.
    assert [m.id for m in menus] == ["mode", "model", "effort", "sandbox"]
    assert all(m.source == "config" for m in menus)
    assert menus[1].choices == (MenuChoice(value="a", name="A"), MenuChoice(value="b", name="B"))


def test_grouped_choices_keep_their_group() -> None:
    grouped = SessionConfigOptionSelect(
        id="model",
        name="Model",
        type="select",
        current_value="x",
        options=[
            SessionConfigSelectGroup(
                group="local",
                name="Local",
                options=[SessionConfigSelectOption(value="x", name="X")],
            ),
            SessionConfigSelectGroup(
                group="hosted",
                name="Hosted",
                options=[SessionConfigSelectOption(value="y", name="Y")],
            ),
        ],
    )
    [menu] = config_menus([grouped])
    assert [(c.value, c.group) for c in menu.choices] == [("x", "Local"), ("y", "Hosted")]


def test_modes_are_a_menu_only_when_no_option_is_the_mode() -> None:
    [only] = session_menus(MODES, None)
    assert (only.source, only.current, [c.value for c in only.choices]) == (
        "modes",
        "ask",
        ["ask", "auto"],
    )
    with_options = session_menus(MODES, OPTIONS)
    assert [m.source for m in with_options] == ["config"] * 4
    without_mode = session_menus(MODES, [OPTIONS[0]])
    assert [(m.id, m.source) for m in without_mode] == [("mode", "modes"), ("sandbox", "config")]
    assert session_menus(None, None) == ()


def test_either_update_may_come_first() -> None:
    switched = [_select("mode", "mode", "auto", "ask", "auto"), *OPTIONS[:3]]
    for order in ("options first", "mode first"):
        menus = SessionMenus()
        menus.opened("s", MODES, OPTIONS)
        if order == "options first":
            menus.options_changed("s", switched)
            menus.mode_changed("s", "auto")
        else:
            menus.mode_changed("s", "auto")
            menus.options_changed("s", switched)
        assert _current(menus.get("s")) == {
            "mode": "auto",
            "model": "a",
            "effort": "low",
            "sandbox": "on",
        }, order


def test_a_modes_menu_follows_the_mode_and_survives_option_updates() -> None:
    menus = SessionMenus()
    menus.opened("s", MODES, [OPTIONS[0]])
    menus.mode_changed("s", "auto")
    menus.options_changed("s", [_select("sandbox", None, "off", "on", "off")])
    assert _current(menus.get("s")) == {"mode": "auto", "sandbox": "off"}
    # A mode no menu offers changes nothing; an unknown session has no menus.
    menus.mode_changed("s", "plan")
    assert _current(menus.get("s"))["mode"] == "auto"
    assert menus.get("other") == ()
    menus.forget("s")
    assert menus.get("s") == ()
