"""An agent's session settings as the page's header menus, and how they change.

ACP offers two shapes: session config options (`configOptions`, a `select` each, switched
with `session/set_config_option` and changed by `config_option_update`) and the older
`modes` (switched with `session/set_mode`, changed by `current_mode_update`). Every `select`
option becomes a menu, grouped by its category with `mode` and `model` first; `modes` become
a menu only when no option already stands for the mode, as ACP asks clients to prefer the
options. The last menus of each session are kept, so an update of either kind, in either
order, and a refused switch (shown back as it was) all end in what the agent holds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from acp.schema import (
    SessionConfigOptionBoolean,
    SessionConfigOptionSelect,
    SessionConfigSelectGroup,
    SessionConfigSelectOption,
    SessionModeState,
)

from tether.web.protocol import Menu, MenuChoice

__all__ = ["FIRST_CATEGORIES", "SessionMenus", "config_menus", "session_menus"]

FIRST_CATEGORIES = ("mode", "model")
"""Categories whose menus come first, in this order; other categories follow as the agent
lists them, then the options without one."""

ConfigOption = SessionConfigOptionSelect | SessionConfigOptionBoolean


def config_menus(options: Sequence[ConfigOption] | None) -> tuple[Menu, ...]:
    """A menu for every `select` option, grouped by category, `mode` and `model` first."""
    menus = [
        _menu(option) for option in options or () if isinstance(option, SessionConfigOptionSelect)
    ]
    order: list[str | None] = list(FIRST_CATEGORIES)
    for menu in menus:
        if menu.category not in order and menu.category is not None:
            order.append(menu.category)
    order.append(None)  # options with no category last
    # A stable sort keeps the agent's order within a category.
    return tuple(sorted(menus, key=lambda m: order.index(m.category)))


def session_menus(
    modes: SessionModeState | None, options: Sequence[ConfigOption] | None
) -> tuple[Menu, ...]:
    """The menus of a session just opened: its config options, and its modes if no option is."""
    menus = config_menus(options)
    if modes is None or not modes.available_modes or _has_mode(menus):
        return menus
    return (_modes_menu(modes), *menus)


class SessionMenus:
    """The menus each open session shows now, kept up to date from the agent's answers."""

    def __init__(self) -> None:
        self._menus: dict[str, tuple[Menu, ...]] = {}

    def get(self, session_id: str) -> tuple[Menu, ...]:
        """The session's menus now (none for a session not opened here)."""
        return self._menus.get(session_id, ())

    def opened(
        self,
        session_id: str,
        modes: SessionModeState | None,
        options: Sequence[ConfigOption] | None,
    ) -> tuple[Menu, ...]:
        """Start from what `session/new` or `session/load` answered."""
        self._menus[session_id] = session_menus(modes, options)
        return self._menus[session_id]

    def options_changed(self, session_id: str, options: Sequence[ConfigOption]) -> tuple[Menu, ...]:
        """The agent's full set of options now (an update, or a switch's answer)."""
        kept = tuple(m for m in self.get(session_id) if m.source == "modes")
        fresh = config_menus(options)
        self._menus[session_id] = fresh if _has_mode(fresh) else (*kept, *fresh)
        return self._menus[session_id]

    def mode_changed(self, session_id: str, mode_id: str) -> tuple[Menu, ...]:
        """The current mode changed: the modes menu and a mode option offering it follow."""
        self._menus[session_id] = tuple(
            replace(menu, current=mode_id)
            if (menu.source == "modes" or menu.category == "mode")
            and any(choice.value == mode_id for choice in menu.choices)
            else menu
            for menu in self.get(session_id)
        )
        return self._menus[session_id]

    def forget(self, session_id: str) -> None:
        """The session is no longer shown."""
        self._menus.pop(session_id, None)


def _has_mode(menus: Sequence[Menu]) -> bool:
    return any(menu.category == "mode" for menu in menus)


def _menu(option: SessionConfigOptionSelect) -> Menu:
    choices: list[MenuChoice] = []
    for item in option.options:
        match item:
            case SessionConfigSelectGroup(name=group, options=inner):
                choices.extend(_choice(c, group) for c in inner)
            case SessionConfigSelectOption():
                choices.append(_choice(item, None))
    category = option.category if isinstance(option.category, str) else None
    return Menu(
        id=option.id,
        name=option.name,
        description=option.description,
        category=category,
        current=option.current_value,
        choices=tuple(choices),
        source="config",
    )


def _choice(option: SessionConfigSelectOption, group: str | None) -> MenuChoice:
    return MenuChoice(
        value=option.value, name=option.name, description=option.description, group=group
    )


def _modes_menu(modes: SessionModeState) -> Menu:
    return Menu(
        id="mode",
        name="Mode",
        category="mode",
        current=modes.current_mode_id,
        choices=tuple(
            MenuChoice(value=m.id, name=m.name, description=m.description)
            for m in modes.available_modes
        ),
        source="modes",
    )
