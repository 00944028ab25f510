"""Constraint layer: every reconstructed Citadel chart value against every constraint the text implies."""
import pytest

from wargames.citadel import charts
from wargames.citadel.charts import CONSTRAINTS, check_constraints, default_charts, load_fire_crt
from wargames.core.errors import DataError


@pytest.mark.rule("C Fire CRT", "C Range table", "C TEC")
@pytest.mark.parametrize("constraint", CONSTRAINTS, ids=lambda c: c.id)
def test_constraint_holds(constraint):
    crt, ranges, tec = default_charts()
    assert constraint.check(crt, ranges, tec), f"{constraint.id} ({constraint.source}): {constraint.text}"


@pytest.mark.rule("C Fire CRT")
def test_every_cell_has_a_provenance_and_only_two_come_from_examples():
    crt, _, _ = default_charts()
    assert len(crt.cells) == 6 * len(crt.columns)
    examples = {k for k, c in crt.cells.items() if c.provenance.kind == "example"}
    assert examples == {("9-10", 2), ("31-40", 4)}
    assert all(c.provenance.kind == "reconstructed" for k, c in crt.cells.items() if k not in examples)


@pytest.mark.rule("C Fire CRT")
def test_a_broken_chart_fails_the_constraints(tmp_path):
    """The constraints can fail: a printed chart that disagrees with the examples is reported."""
    src = (charts.DATA / "fire_crt.yaml").read_text()
    bad = src.replace('  4: ["-", "-", "-", "-", "1", "1", "2P", "2P", "2P", "3P"', '  4: ["-", "-", "-", "-", "1", "1", "2P", "2P", "2P", "2P"')
    assert bad != src
    p = tmp_path / "my_crt.yaml"
    p.write_text(bad)
    mine = load_fire_crt(p)
    assert "crt-31-40-roll-4" in check_constraints(crt=mine)


@pytest.mark.rule("C Fire CRT")
def test_owner_chart_with_a_bad_cell_names_the_file_and_cell(tmp_path):
    src = (charts.DATA / "fire_crt.yaml").read_text()
    p = tmp_path / "printed.yaml"
    p.write_text(src.replace('  3: ["-", "-", "-", "1"', '  3: ["-", "-", "-", "x1"'))
    with pytest.raises(DataError) as e:
        load_fire_crt(p)
    assert e.value.file == str(p) and e.value.field == "results[3][7-8]"
    p.write_text(src.replace('  5: ["-", "-", "-", "-", "-", "1",', '  5: ["-", "-", "-", "-", "1",'))
    with pytest.raises(DataError) as e:
        load_fire_crt(p)
    assert e.value.field == "results[5]" and "15 cells" in e.value.reason


@pytest.mark.rule("C Range table")
def test_range_table_errors_name_the_band(tmp_path):
    src = (charts.DATA / "range_modifiers.yaml").read_text()
    p = tmp_path / "ranges.yaml"
    p.write_text(src.replace("{ranges: [3, 6], multiplier: 2}", "{ranges: [4, 6], multiplier: 2}"))
    with pytest.raises(DataError) as e:
        charts.load_range_table(p)
    assert e.value.field == "weapons.howitzer_105[1].ranges"
