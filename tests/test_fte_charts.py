"""FTE charts: every constraint the text and the examples put on them, provenance, and owners' printed charts."""
import copy
from pathlib import Path

import pytest

from wargames.core.errors import DataError
from wargames.fte.charts import (CONSTRAINTS, DATA, check_constraints, default_charts, load_charts,
                                 load_fire_request, load_target_effects, load_terrain_chart, load_vp_chart)
from . import yamlc

C = {c.id: c for c in CONSTRAINTS}
RULES = {"TEC": "F TEC", "TET": "F TET", "FR": "F Fire Request Table", "MED": "F Medevac Table",
         "RE": "F Random Event Table", "VP": "F VP Chart", "MK": "F Marker DRMs"}


@pytest.mark.rule("F TEC", "F TET", "F Fire Request Table", "F Medevac Table", "F Random Event Table", "F VP Chart",
                  "F Marker DRMs")
@pytest.mark.parametrize("cid", list(C))
def test_shipped_charts_meet_each_constraint(cid):
    assert C[cid].check(default_charts()), C[cid].text


def _broken(cid):
    """A copy of the shipped charts with one value changed so that constraint ``cid`` must fail."""
    c = copy.deepcopy(default_charts())
    tet = c.tet.cells
    from wargames.core.charts import Cell
    def set_tet(col, roll, v):
        tet[(col, roll)] = Cell(v, tet[(col, roll)].provenance)
    def set_val(row, key, v, table="terrain"):
        from wargames.fte.charts import Valued
        rows = getattr(c.tec, table)
        rows[row][key] = Valued(v, rows[row][key].provenance)
    breakers = {
        "TEC-printed": lambda: set_val("grass", "fire", 2),
        "TEC-jungle-fire": lambda: set_val("jungle", "fire", 3),
        "TEC-jungle-move": lambda: set_val("jungle", "infantry", 3),
        "TEC-trail": lambda: set_val("trail", "infantry", 2, "features"),
        "TEC-slope": lambda: set_val("slope", "infantry", 1, "features"),
        "TEC-paddy": lambda: set_val("rice_paddy", "infantry", 2),
        "TEC-heli-air": lambda: set_val("jungle", "helicopter_air", 2),
        "TEC-heli-ground": lambda: set_val("jungle", "helicopter_ground", 1),
        "TEC-blocking": lambda: set_val("rice_paddy", "blocking", True),
        "TEC-opfire": lambda: set_val("road", "opportunity_fire", 0, "features"),
        "TEC-clear-conceal": lambda: set_val("clear", "fire", 1),
        "TET-printed": lambda: set_tet("he", 3, "KIA"),
        "TET-SA8": lambda: set_tet("small_arms", 8, "S?"),
        "TET-SA9": lambda: set_tet("small_arms", 9, "S"),
        "TET-B5": lambda: set_tet("small_arms", 5, "S"),
        "TET-HE1": lambda: set_tet("he", 1, "WIA"),
        "TET-monotone": lambda: set_tet("dual_purpose", 10, "B"),
        "TET-possible": lambda: set_tet("he", 10, "S"),
    }
    if cid in breakers:
        breakers[cid]()
        return c
    return None


@pytest.mark.rule("F TEC", "F TET")
@pytest.mark.parametrize("cid", [k for k in C if k.startswith(("TEC", "TET"))])
def test_each_constraint_can_fail(cid):
    bad = _broken(cid)
    assert bad is not None, f"no breaker for {cid}"
    assert cid in check_constraints(bad)


@pytest.mark.rule("F TET")
def test_reconstructed_cells_are_tagged_and_examples_name_their_source():
    tet = default_charts().tet
    assert tet.get("small_arms", 8).provenance.kind == "example"
    assert "Assault Example" in tet.get("small_arms", 9).provenance.source
    recon = sorted((c, r) for (c, r), cell in tet.cells.items() if cell.provenance.reconstructed)
    assert recon and all(r >= 7 for _, r in recon)
    assert default_charts().tec.terrain["jungle"]["concealment"].provenance.kind == "reconstructed"


def _write(tmp_path: Path, name: str, data) -> Path:
    p = tmp_path / name
    p.write_text(yamlc.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return p


@pytest.mark.rule("F TET", "F TEC", "F VP Chart", "F Fire Request Table")
def test_owners_printed_charts_load_and_bad_cells_are_named(tmp_path):
    data = yamlc.safe_load((DATA / "target_effects.yaml").read_text())
    data.pop("provenance"), data.pop("cells")
    good = _write(tmp_path, "target_effects.yaml", data)
    owned = load_charts(tmp_path)
    assert owned.tet.get("he", 9).provenance.kind == "printed"
    assert check_constraints(owned) == []
    data["by_column"]["small_arms"][8] = "X"
    with pytest.raises(DataError) as e:
        load_target_effects(_write(tmp_path, "bad.yaml", data))
    assert e.value.field == "by_column[small_arms][8]" and "roll 9" in e.value.reason and "bad.yaml" in str(e.value)
    assert e.value.line is not None
    tec = yamlc.safe_load((DATA / "terrain_effects.yaml").read_text())
    tec["terrain"]["jungle"]["infantry"] = "two"
    with pytest.raises(DataError) as e:
        load_terrain_chart(_write(tmp_path, "tec.yaml", tec))
    assert "terrain.jungle.infantry" in str(e.value)
    vp = yamlc.safe_load((DATA / "victory_points.yaml").read_text())
    del vp["events"]["dow"]["US"]
    with pytest.raises(DataError) as e:
        load_vp_chart(_write(tmp_path, "vp.yaml", vp))
    assert "events.dow.US" in str(e.value)
    fr = yamlc.safe_load((DATA / "fire_request.yaml").read_text())
    fr["by_column"]["US"][3] = "ARTY soon"
    with pytest.raises(DataError) as e:
        load_fire_request(_write(tmp_path, "fr.yaml", fr))
    assert e.value.field == "by_column[US][3]" and "roll 4" in e.value.reason


@pytest.mark.rule("F VP Chart", "F Marker DRMs", "F TEC")
@pytest.mark.parametrize("file,change,field", [
    ("victory_points.yaml", lambda d: d.update(provenance=7), "provenance"),
    ("markers.yaml", lambda d: d.update(provenance=7), "provenance"),
    ("markers.yaml", lambda d: d["markers"]["hero"].update(provenance=7), "markers.hero.provenance"),
    ("markers.yaml", lambda d: d["markers"]["hero"].update(tq=-1_000_000), "markers.hero.tq"),
    ("markers.yaml", lambda d: d["markers"].update(brave={"fire": 0, "tq": 0}), "markers.brave"),
    ("victory_points.yaml", lambda d: d["events"]["dow"].update(provenance={"NVA": {"kind": "text"}}),
     "events.dow.provenance.NVA"),
    ("victory_points.yaml", lambda d: d["events"]["rtd"].update(title=7), "events.rtd.title"),
    ("terrain_effects.yaml", lambda d: d["terrain"]["jungle"].update(vehicle=7), "terrain.jungle.vehicle"),
    ("terrain_effects.yaml", lambda d: d["terrain"]["clear"].update(helicopter_ground=3),
     "terrain.clear.helicopter_ground"),
    ("terrain_effects.yaml", lambda d: d["features"]["slope"]["provenance"].update(
        opportunity_fire={"kind": "reconstructed"}), "features.slope.provenance.opportunity_fire"),
    ("terrain_effects.yaml", lambda d: d["terrain"].pop("jungle"), "terrain.jungle"),
    ("medevac.yaml", lambda d: d["by_column"]["arrival"].__setitem__(0, 0), "by_column[arrival][0]"),
])
def test_bad_chart_values_name_the_file_the_field_and_the_line(tmp_path, file, change, field):
    from wargames.fte.ruleset import Ruleset
    data = yamlc.safe_load((DATA / file).read_text())
    change(data)
    loader = {f: load for f, load in Ruleset.CHARTS.values()}[file]
    with pytest.raises(DataError) as e:
        loader(_write(tmp_path, file, data))
    assert e.value.field == field and e.value.file.endswith(file) and e.value.line is not None, str(e.value)


@pytest.mark.rule("F TET")
def test_a_missing_chart_folder_is_an_error_not_the_shipped_charts(tmp_path):
    with pytest.raises(DataError) as e:
        load_charts(tmp_path / "typo-dir")
    assert "typo-dir" in e.value.file
    (tmp_path / "target_efects.yaml").write_text("name: x\n")
    with pytest.raises(DataError, match="is not a chart of FTE"):
        load_charts(tmp_path)


@pytest.mark.rule("F TET", "F VP Chart")
def test_every_caller_gets_its_own_charts_and_reloading_sees_an_edit(tmp_path):
    a, b = default_charts(), default_charts()
    a.tet.cells.clear()
    a.vp.rows["dow"].clear()
    assert b.tet.get("he", 1).value == "KIA" and default_charts().vp.value("dow", "US") == -2
    from wargames.fte.ruleset import Ruleset
    r1, r2 = Ruleset.default(), Ruleset.default()
    r1.chart("tet").cells.clear()
    assert r2.chart("tet").get("he", 1).value == "KIA" and Ruleset.default().charts().tet.cells
    data = yamlc.safe_load((DATA / "victory_points.yaml").read_text())
    p = _write(tmp_path, "victory_points.yaml", data)
    assert load_vp_chart(p).value("dow", "US") == -2
    data["events"]["dow"]["US"] = -3
    _write(tmp_path, "victory_points.yaml", data)
    assert load_vp_chart(p).value("dow", "US") == -3 and load_charts(tmp_path).vp.value("dow", "US") == -3
