"""Final scoring: council prestige earned during play, city members, chapels, edifices,
unused privileges and task cards (value if fulfilled, −3 if not); winners with ties."""

from __future__ import annotations

from server.engine import Result

from .data import GUILD_KEYS, Task, chapel_cells, components, neighbours
from .state import State, built_edifices, city_cells, council_count

Cell = tuple[int, int]
UNFULFILLED_TASK = -3
CATEGORIES = ("council", "city", "chapels", "edifices", "privileges", "tasks")


def _adjacent_own(cells: set[Cell], at: Cell) -> int:
    return sum(1 for n in neighbours(at) if n in cells)


def _has_line(cells: set[Cell], steps: list[Cell]) -> bool:
    return any(
        all((r + k * dr, c + k * dc) in cells for k in (1, 2)) for r, c in cells for dr, dc in steps
    )


def task_fulfilled(state: State, seat: int, task: Task) -> bool:
    """Whether ``seat`` fulfils ``task`` on the final board."""
    comp = components()
    cells = set(city_cells(state, seat))
    built = built_edifices(state)
    near = {comp.edifices[idx].key: _adjacent_own(cells, at) for at, idx in built.items()}
    kind = task.kind
    if kind == "edifice_neighbours":
        return near.get(task.param or "", 0) >= 2
    if kind == "guild_members":
        return sum(1 for cell in cells if comp.guild_of_cell[cell] == task.param) >= 3
    if kind == "edifice_cluster":
        return any(k >= 3 for k in near.values())
    if kind == "edifice_variety":
        return sum(1 for k in near.values() if k >= 1) >= 4
    if kind == "orthogonal_line":
        return _has_line(cells, [(0, 1), (1, 0)])
    if kind == "diagonal_line":
        return _has_line(cells, [(1, 1), (1, -1)])
    if kind == "council":
        return council_count(state, seat) >= comp.council_task_need[state["seats"]]
    if kind == "city_majority":
        others = [len(city_cells(state, s)) for s in range(state["seats"]) if s != seat]
        return all(len(cells) > k for k in others)
    return {comp.guild_of_cell[cell] for cell in cells} == set(GUILD_KEYS)  # all_guilds


def breakdown(state: State, seat: int) -> dict[str, int]:
    """Points of ``seat`` per category (see CATEGORIES); they sum to its score."""
    comp = components()
    player = state["players"][seat]
    cells = set(city_cells(state, seat))
    chapels = sum(
        1 for i in state["chapels"] for cell in chapel_cells(comp.chapel_sites[i]) if cell in cells
    )
    edifices = sum(
        comp.edifices[idx].value * _adjacent_own(cells, at)
        for at, idx in built_edifices(state).items()
    )
    tasks = sum(
        comp.tasks[t].value if task_fulfilled(state, seat, comp.tasks[t]) else UNFULFILLED_TASK
        for t in player["tasks"]
    )
    return {
        "council": player["prestige"],
        "city": len(cells),
        "chapels": chapels,
        "edifices": edifices,
        "privileges": player["privileges"],
        "tasks": tasks,
    }


def final_result(state: State) -> Result:
    """Scores, per-category breakdown and winners: most points, then most city members,
    then a shared win."""
    n = state["seats"]
    parts = [breakdown(state, seat) for seat in range(n)]
    scores = [sum(p.values()) for p in parts]
    key = [(scores[s], parts[s]["city"]) for s in range(n)]
    best = max(key)
    return {
        "scores": scores,
        "breakdown": parts,
        "winners": [s for s in range(n) if key[s] == best],
    }


def council_members(state: State) -> list[int]:
    """Council seats held per seat (public)."""
    return [council_count(state, seat) for seat in range(state["seats"])]
