"""The academic API library: its specs, the local backend on the real sample, OpenAlex on recorded answers."""

import json

import httpx
import pytest
from click.testing import CliRunner

from scholar_tui.app.cli import cli
from scholar_tui.config.settings import NetworkSettings
from scholar_tui.core.library.apis import ERROR_CODES, SPECS, APIError, local_api, openalex_api

from .library_support import openalex_handler, recording

SOAY_RETURNS = {  # the SoAy paper's (and its AMiner client's) fields for each API
    "searchPerson": {"person_id", "name", "num_citation", "interest", "num_pubs", "organization"},
    "searchPublication": {"pub_id", "title", "year"},
    "getCoauthors": {"person_id", "name", "relation"},
    "getPersonInterest": {"interests"},
    "getPublication": {"title", "abstract", "authors", "year", "venue", "num_citation"},
    "getPersonBasicInfo": {"person_id", "name", "organization", "position", "bio", "education_experience", "email"},
    "getPersonPubs": {"pub_id", "title", "num_citation", "year"},
}


def test_specs_are_complete_and_machine_readable():
    assert list(SPECS) == list(SOAY_RETURNS)
    for name, spec in SPECS.items():
        data = json.loads(json.dumps(spec.as_dict()))
        assert data["description"] and data["signature"].startswith(f"{name}(")
        assert SOAY_RETURNS[name] <= {field["name"] for field in data["returns"]}
        assert all(
            p["type"] == "string" and isinstance(p["required"], bool) and p["description"] for p in data["parameters"]
        )
        assert {"E_BAD_ARGUMENT"} <= {e["code"] for e in data["errors"]} and all(e["meaning"] for e in data["errors"])
        assert data["json_schema"]["additionalProperties"] is False
    assert SPECS["searchPerson"].at_least_one_of == ("name", "organization", "interest")
    assert [p.name for p in SPECS["searchPublication"].parameters if p.required] == ["publication_info"]
    assert "E_NOT_FOUND" in SPECS["getPublication"].errors and "E_NOT_FOUND" not in SPECS["searchPerson"].errors


def test_api_list_json_is_the_same_spec():
    result = CliRunner().invoke(cli, ["api", "list", "--json"])
    data = json.loads(result.output)
    assert [api["name"] for api in data["apis"]] == list(SPECS) and data["error_codes"] == ERROR_CODES


# -- local backend on the imported sample ------------------------------------------------------------
@pytest.mark.parametrize("query", ["Michelen", "michelen", "M. Michelen", "Marcus Michelin", "MICHELEN marcus", "Mich"])
def test_search_person_is_fuzzy(imported, query):
    assert local_api(imported).searchPerson(name=query)[0]["name"] == "Marcus Michelen"


def test_search_person_handles_accents_middle_names_and_misses(imported):
    api = local_api(imported)
    assert api.searchPerson(name="Eyyub Sari")[0]["name"] == "Eyyüb Sari"
    assert api.searchPerson(name="Preuss")[0]["name"] in {"Johann A. Preuß", "Mike Preuss"}
    assert {row["name"] for row in api.searchPerson(name="Preuss")} == {"Johann A. Preuß", "Mike Preuss"}
    assert api.searchPerson(name="Partovi")[0]["name"] == "Vahid Partovi Nia"
    assert api.searchPerson(name="Nobody Atall") == []
    by_interest = api.searchPerson(interest="probability")
    assert "Marcus Michelen" in {row["name"] for row in by_interest}
    assert all("Probability" in row["interest"] for row in by_interest)


def test_every_api_answers_on_the_local_library(imported):
    api = local_api(imported)
    person = api.searchPerson(name="Asgharian")[0]
    assert person["name"] == "Masoud Asgharian" and person["num_pubs"] == 2 and person["num_citation"] is None
    coauthors = api.getCoauthors(person_id=person["person_id"])
    assert coauthors[0] == {
        "person_id": coauthors[0]["person_id"],
        "name": "Vahid Partovi Nia",
        "relation": "coauthor",
        "num_joint_pubs": 2,
    }
    assert api.getPersonInterest(person["person_id"]) == ["Machine Learning", "Computation and Language"]
    info = api.getPersonBasicInfo(person_id=person["person_id"])
    assert (
        info["name"] == "Masoud Asgharian" and info["email"] is None and set(info) >= SOAY_RETURNS["getPersonBasicInfo"]
    )
    pubs = api.getPersonPubs(person_id=person["person_id"])
    assert {pub["title"] for pub in pubs} == {
        "Training Integer-Only Deep Recurrent Neural Networks",
        "EuclidNets: An Alternative Operation for Efficient Inference of Deep Learning Models",
    }
    assert all("Masoud Asgharian" in pub["authors_name_list"] for pub in pubs)
    found = api.searchPublication(publication_info="zeros of derivatives of random polynomials")
    assert found[0]["title"].startswith("Zeros of a growing number of derivatives") and found[0]["year"] == 2022
    publication = api.getPublication(pub_id=found[0]["pub_id"])
    assert [a["name"] for a in publication["authors"]] == ["Marcus Michelen", "Xuan-Truong Vu"]
    assert publication["venue"] == "arXiv" and publication["abstract"].startswith("Let $X_1,X_2")
    # a publication may also be named by its arXiv id
    assert api.getPublication("2212.11867")["pub_id"] == found[0]["pub_id"]


def test_wrong_calls_raise_typed_errors(imported):
    api = local_api(imported)
    cases = [
        (lambda: api.getCoauthors(person_id=12), "E_BAD_ARGUMENT", "must be a string"),
        (lambda: api.getCoauthors(id="person:1"), "E_BAD_ARGUMENT", "has no parameter 'id'"),
        (lambda: api.getCoauthors(), "E_BAD_ARGUMENT", "needs 'person_id'"),
        (lambda: api.searchPerson(), "E_BAD_ARGUMENT", "at least one of name, organization, interest"),
        (lambda: api.searchPublication(publication_info="  "), "E_BAD_ARGUMENT", "is empty"),
        (lambda: api.getPublication(pub_id="Zeros of a growing number"), "E_BAD_ARGUMENT", "not a publication id"),
        (lambda: api.getPersonPubs(person_id="person:99999"), "E_NOT_FOUND", "no person person:99999"),
        (lambda: api.getPublication(pub_id="1999.00001"), "E_NOT_FOUND", "no publication"),
        (lambda: api.call("getPaper", pub_id="paper:1"), "E_UNKNOWN_API", "the APIs are searchPerson"),
    ]
    for call, code, words in cases:
        with pytest.raises(APIError) as caught:
            call()
        assert caught.value.code == code and words in caught.value.message, caught.value


def test_functions_for_a_sandbox(imported):
    functions = local_api(imported).functions()
    assert set(functions) == set(SPECS)
    assert functions["searchPerson"]("Michelen")[0]["name"] == "Marcus Michelen"  # positional, in spec order
    assert functions["getPublication"].__doc__.startswith("getPublication(pub_id: str) -> dict")


def test_cli_api_prints_json_and_one_line_errors(imported):
    runner = CliRunner()
    result = runner.invoke(cli, ["api", "searchPerson", "--name", "Michelen"])
    assert result.exit_code == 0 and json.loads(result.output)[0]["name"] == "Marcus Michelen"
    result = runner.invoke(cli, ["api", "searchPublication", "--publication-info", "integer-only recurrent networks"])
    assert json.loads(result.output)[0]["title"] == "Training Integer-Only Deep Recurrent Neural Networks"
    result = runner.invoke(cli, ["api", "getPersonPubs", "--person_id", "person:99999"])
    assert (
        result.exit_code == 1
        and result.output.strip() == "Error: E_NOT_FOUND: no person person:99999 in the local library"
    )


# -- OpenAlex backend on recorded answers ------------------------------------------------------------
@pytest.fixture
def openalex(empty_library):
    transport, seen = recording(openalex_handler)
    network = NetworkSettings(contact_email="lab@example.org")
    return openalex_api(network, empty_library, transport=transport, backoff_s=0), seen, empty_library


def test_every_api_answers_on_openalex(openalex):
    api, seen, library = openalex
    people = api.searchPerson(name="Michelen")
    assert people[0] == {
        "person_id": "A9000000001",
        "name": "Marcus Michelen",
        "num_citation": 517,
        "interest": ["Random Matrices and Applications", "Combinatorial Probability"],
        "num_pubs": 42,
        "organization": "University of Illinois Chicago",
        "aliases": ["M. Michelen", "Marcus W. Michelen"],
    }
    assert [p["name"] for p in api.searchPerson(organization="University of Illinois Chicago")] == [
        "Marcus Michelen",
        "Xuan-Truong Vu",
    ]
    assert api.searchPublication(publication_info="zeros of derivatives")[0] == {
        "pub_id": "W9000000001",
        "title": "Zeros of a growing number of derivatives of random polynomials with independent roots",
        "year": 2022,
    }
    publication = api.getPublication(pub_id="W9000000001")
    assert publication["venue"] == "arXiv" and publication["num_citation"] == 3
    assert publication["authors"][0] == {
        "person_id": "A9000000001",
        "name": "Marcus Michelen",
        "organization": "University of Illinois Chicago",
    }
    coauthors = api.getCoauthors(person_id="A9000000001")
    assert {(c["name"], c["num_joint_pubs"]) for c in coauthors} == {("Xuan-Truong Vu", 1), ("Sean O'Rourke", 1)}
    assert api.getPersonInterest(person_id="A9000000001") == [
        "Random Matrices and Applications",
        "Combinatorial Probability",
    ]
    assert api.getPersonInterest(person_id="A9000000002") == ["Probability theory", "Mathematics"]  # x_concepts
    assert api.getPersonBasicInfo(person_id="A9000000002")["organization"] == "University of Illinois Chicago"
    pubs = api.getPersonPubs(person_id="https://openalex.org/A9000000001")
    assert [p["pub_id"] for p in pubs] == ["W9000000050", "W9000000001"] and pubs[1]["num_citation"] == 3
    # polite: the contact address rides along; and what came back is now in the library
    assert all(request.url.params.get("mailto") == "lab@example.org" for request in seen)
    assert "mailto:lab@example.org" in seen[0].headers["User-Agent"]
    assert library.resolve_paper("W9000000001") and library.resolve_person("A9000000001")


def test_openalex_errors_are_typed(openalex, monkeypatch):
    api, _, _ = openalex
    for call, code in [
        (lambda: api.getCoauthors(person_id="person:1"), "E_BAD_ARGUMENT"),
        (lambda: api.getPublication(pub_id="A9000000001"), "E_BAD_ARGUMENT"),
        (lambda: api.getPublication(pub_id="W123"), "E_NOT_FOUND"),
        (lambda: api.getPersonBasicInfo(person_id="A404"), "E_NOT_FOUND"),
        (lambda: api.searchPerson(interest="probability"), "E_UNSUPPORTED"),
    ]:
        with pytest.raises(APIError) as caught:
            call()
        assert caught.value.code == code
    offline = openalex_api(NetworkSettings(offline=True), None)
    with pytest.raises(APIError) as caught:
        offline.searchPerson(name="Michelen")
    assert caught.value.code == "E_OFFLINE" and "local library still answers" in caught.value.message


def test_openalex_server_errors_become_e_upstream():
    failing = httpx.MockTransport(lambda request: httpx.Response(503))
    api = openalex_api(NetworkSettings(), None, transport=failing, backoff_s=0)
    with pytest.raises(APIError) as caught:
        api.searchPublication(publication_info="anything")
    assert caught.value.code == "E_UPSTREAM" and "503 after 4 tries" in caught.value.message


def test_open_api_opens_its_own_connection(imported, where, settings):
    from scholar_tui.core.library.apis import open_api

    assert open_api(where, settings).searchPerson(name="Vu")[0]["name"] == "Xuan-Truong Vu"
    with pytest.raises(APIError, match="unknown backend 'aminer'"):
        open_api(where, settings, backend="aminer")
