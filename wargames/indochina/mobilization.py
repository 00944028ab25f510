"""Rule 7: mobilization with political points, and its placement limits."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..core import Provenance, Resolution, implements
from ..core.schema import Map, Record
from ..core.errors import DataError, RuleViolation
from .combat import Side
from .fields import HEADER, HEADER_OPTIONAL, NAME, POINTS, SIDE, load_chart, provenance, shipped
from .political import PoliticalPoints

DATA = Path(__file__).parent / "data" / "charts"
FESA = "Far Eastern Staging Area"
COSTLY_TERRAIN = ("mountain", "jungle", "swamp")   # 7.71


@dataclass(frozen=True)
class MobilizationRow:
    unit_type: str
    side: Side
    cost: int
    location: str
    provenance: Provenance


def _schema(default: Provenance) -> Record:
    row = Record({"side": SIDE, "cost": POINTS, "location": NAME}, {"provenance": provenance(default)})
    return Record({**HEADER, "units": Map(NAME, row, min_len=1, max_len=200)}, HEADER_OPTIONAL,
                  build=lambda v: {name: MobilizationRow(name, r["side"], r["cost"], r["location"], r["provenance"])
                                   for name, r in v["units"].items()})


def load_mobilization_chart(path: str | Path | None = None) -> dict[str, MobilizationRow]:
    """The Mobilization Chart rows the text gives (a new dict on every call)."""
    return load_chart(DATA / "mobilization.yaml" if path is None else path, _schema)


@implements("IC 7.0", "IC 7.2", "IC 7.21", "IC 7.22", "IC 7.23", "IC 7.71")
@dataclass
class MobilizationPhase:
    """One player's Mobilization Phase: each unit costs its chart price, one new unit per hex (FESA excepted)."""

    side: Side
    points: PoliticalPoints
    placed: dict[str, str] = field(default_factory=dict)      # hex or area -> unit type placed this phase
    log: Resolution = field(default_factory=Resolution)

    def mobilize(self, unit_type: str, where: str, terrain: str = "clear") -> int:
        chart = shipped("mobilization")
        row = chart.get(unit_type)
        if row is None:
            raise DataError(str(DATA / "mobilization.yaml"), f"units.{unit_type}",
                            "this unit type has no Mobilization Chart row yet (the printed chart is absent)")
        if row.side is not self.side:
            raise RuleViolation("IC 7.21", f"the {self.side.value} player cannot mobilize a {unit_type}")
        if where != FESA and where in self.placed:
            raise RuleViolation("IC 7.23", f"{where} already received a mobilized unit this phase "
                                           f"({self.placed[where]}); one unit per hex per phase")
        cost = row.cost
        if self.side is Side.COMMUNIST and terrain in COSTLY_TERRAIN:
            cost += 1
            self.log.add("IC 7.71", f"{unit_type} placed in {terrain}: +1 political point", arithmetic=f"{row.cost} + 1")
        self.points.spend(self.side, cost, why=f"mobilize a {unit_type}")
        self.placed.setdefault(where, unit_type)
        self.log.add("IC 7.22", f"{self.side.value} mobilizes a {unit_type} for {cost} PP, placed in {where} "
                     f"({row.location}; {row.provenance.kind})", result=cost)
        return cost


AIRBORNE_SUPPLY_COST = 2          # reconstructed: the price is on the absent Mobilization Chart (15.71)
AIRBORNE_SUPPLY_MARKERS = 6       # reconstructed: the counter mix limits the markers (15.75 note)


@implements("IC 15.71")
def create_airborne_supply(phase: "MobilizationPhase", air_mission_box: list[str], markers_in_play: int,
                           us_intervened: bool = False, us: bool = False) -> str:
    """15.71: in a friendly Mobilization Phase, spend political points for an airborne supply marker, placed
    in the Air Mission box. The markers are a design limit; US markers need US intervention first."""
    if phase.side is not Side.FEF:
        raise RuleViolation("IC 15.71", "only the FEF flies airborne supply (15.72)")
    if markers_in_play >= AIRBORNE_SUPPLY_MARKERS:
        raise RuleViolation("IC 15.71", f"all {AIRBORNE_SUPPLY_MARKERS} airborne supply markers are in play; "
                                        f"no more may be made")
    if us and not us_intervened:
        raise RuleViolation("IC 15.71", "US airborne supply comes only after US intervention")
    phase.points.spend(phase.side, AIRBORNE_SUPPLY_COST, why="an airborne supply marker (reconstructed cost)")
    marker = f"airborne supply {markers_in_play + 1}"
    air_mission_box.append(marker)
    phase.log.add("IC 15.71", f"{marker} bought for {AIRBORNE_SUPPLY_COST} PP (reconstructed price) and put in "
                              f"the Air Mission box", result=marker)
    return marker
