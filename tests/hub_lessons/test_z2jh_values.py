"""Zero to JupyterHub, on paper (issue 29): ``hub_config/z2jh-values.yaml`` (the chart's values),
``z2jh-classes.yaml`` (one Deployment, Service and results volume per class) and the ``Dockerfile`` of the
image both use. None of them ran on a cluster here; these tests parse them and check that everything they name
exists in the kit and agrees across the files: the class services' command lines parse with the real
``safari-kit class`` options, their hub environment reads as ``--hub`` reads it, ports and prefixes match the
services' URLs, the learners' servers start the kit's own start step on its own lessons, the culler and
resources are those of ``lessons_servers.py`` and the measured figures, the image copies what the wheel needs.
"""
from __future__ import annotations

import importlib.util
import re
import tomllib
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import yaml

from safari_kit.authoring.workspace import kit_lessons
from safari_kit.classroom.hub_config import CONFIG
from safari_kit.classroom.settings import from_arguments
from safari_kit.cli import build_parser

HERE = CONFIG.parent
REPO = Path(__file__).resolve().parents[2]
VALUES = yaml.safe_load((HERE / "z2jh-values.yaml").read_text(encoding="utf-8"))
OBJECTS = [o for o in yaml.safe_load_all((HERE / "z2jh-classes.yaml").read_text(encoding="utf-8")) if o]
CLASSES = sorted(VALUES["hub"]["services"])
#: figures measured on loopback (HUB-NOTES): a class service up to 200 MB, about 60 MB a lab
SERVICE_MB, LAB_MB = 200, 60


def _objects(kind: str) -> dict[str, dict]:
    return {o["metadata"]["name"]: o for o in OBJECTS if o["kind"] == kind}


def _container(name: str) -> dict:
    (container,) = _objects("Deployment")[f"safari-class-{name}"]["spec"]["template"]["spec"]["containers"]
    return container


def _env(container: dict) -> dict[str, str]:
    return {e["name"]: e.get("value", "") for e in container["env"]}


def _mebibytes(quantity: str) -> float:
    number, unit = re.fullmatch(r"([\d.]+)([A-Za-z]*)", str(quantity)).groups()
    return float(number) * {"Gi": 1024, "Mi": 1, "G": 1e9 / 2**20, "M": 1e6 / 2**20, "": 1 / 2**20}[unit]


def _lessons_servers() -> dict:
    namespace: dict = {"__file__": str(HERE / "lessons_servers.py")}
    exec(compile((HERE / "lessons_servers.py").read_text(encoding="utf-8"), "lessons_servers.py", "exec"), namespace)
    return namespace


def test_the_files_parse_and_name_the_same_classes():
    assert CLASSES == ["7b", "8c"]
    assert {o["kind"] for o in OBJECTS} == {"Deployment", "Service", "PersistentVolumeClaim"}
    for kind in ("Deployment", "Service", "PersistentVolumeClaim"):
        assert len(_objects(kind)) == len(CLASSES), kind
    assert set(VALUES["hub"]["loadRoles"]) == {f"class-{name}" for name in CLASSES}


@pytest.mark.parametrize("name", CLASSES)
def test_each_class_service_is_a_deployment_and_a_service_at_the_hubs_url(name):
    url = urlsplit(VALUES["hub"]["services"][name]["url"])
    service = _objects("Service")[url.hostname]
    assert service["spec"]["selector"] == {"safari-kit/class": name}
    (port,) = service["spec"]["ports"]
    assert port["port"] == url.port
    deployment = _objects("Deployment")[f"safari-class-{name}"]
    assert deployment["spec"]["replicas"] == 1 and deployment["spec"]["strategy"]["type"] == "Recreate"
    labels = deployment["spec"]["template"]["metadata"]["labels"]
    assert deployment["spec"]["selector"]["matchLabels"].items() <= labels.items()
    assert labels["hub.jupyter.org/network-access-hub"] == "true"
    container = _container(name)
    env = _env(container)
    listen = urlsplit(env["JUPYTERHUB_SERVICE_URL"])
    assert listen.port == port["targetPort"] == container["ports"][0]["containerPort"]
    assert env["JUPYTERHUB_SERVICE_PREFIX"] == f"/services/{name}/" and env["JUPYTERHUB_SERVICE_NAME"] == name
    secret = next(e for e in container["env"] if e["name"] == "JUPYTERHUB_API_TOKEN")["valueFrom"]["secretKeyRef"]
    assert secret == {"name": "hub", "key": f"hub.services.{name}.apiToken"}
    # the proxy and the hub may reach it (the chart's network policies), on that port
    for policy in (VALUES["hub"]["networkPolicy"], VALUES["proxy"]["chp"]["networkPolicy"]):
        (rule,) = policy["egress"]
        assert rule["to"][0]["podSelector"]["matchLabels"].items() <= labels.items()
        assert [p["port"] for p in rule["ports"]] == [url.port]


@pytest.mark.parametrize("name", CLASSES)
def test_each_class_runs_safari_kit_class_hub_with_options_the_kit_has(name):
    container = _container(name)
    assert container["command"] == ["safari-kit"]
    args = build_parser().parse_args(container["args"])  # the real command line: an unknown flag fails here
    assert args.command == "class"
    settings = from_arguments(args)
    assert settings.hub and settings.teacher_group == f"teachers-{name}" and settings.results.endswith(f"/{name}")
    role = VALUES["hub"]["loadRoles"][f"class-{name}"]
    assert role["scopes"] == [f"access:services!service={name}"]
    assert set(role["groups"]) == {name, f"teachers-{name}"}
    assert set(role["groups"]) <= set(VALUES["hub"]["config"]["Authenticator"]["allowed_groups"])
    # the environment reads as --hub reads it (the token comes from the Secret at run time)
    from safari_kit.classroom.hub_env import read_service

    env = {**_env(container), "JUPYTERHUB_API_TOKEN": "from-the-secret"}
    service = read_service(env, settings.public_url)
    assert service.prefix == f"/services/{name}/" and service.name == name
    assert service.public_url.endswith(f"/services/{name}/")
    # results on the class's own volume
    mount = container["volumeMounts"][0]
    assert settings.results.startswith(mount["mountPath"] + "/")
    (volume,) = _objects("Deployment")[f"safari-class-{name}"]["spec"]["template"]["spec"]["volumes"]
    assert volume["name"] == mount["name"]
    assert volume["persistentVolumeClaim"]["claimName"] in _objects("PersistentVolumeClaim")
    # memory from the figures measured here: the service and every lab it may hold fit under its limit
    limit = _mebibytes(container["resources"]["limits"]["memory"])
    assert SERVICE_MB + settings.max_kernels * LAB_MB <= limit
    assert _mebibytes(container["resources"]["requests"]["memory"]) <= limit
    assert settings.memory_limit_mb and settings.memory_limit_mb < limit


def test_learners_servers_run_the_kits_start_step_on_its_lessons_with_the_culler():
    single = VALUES["singleuser"]
    servers = _lessons_servers()
    assert single["cmd"][1:] == ["-m", "safari_kit.classroom.learner_server"]
    assert importlib.util.find_spec(single["cmd"][2]) is not None
    assert single["defaultUrl"] == servers["DEFAULT_URL"]
    assert (kit_lessons() / Path(single["defaultUrl"]).name).is_file()
    assert single["memory"] == {"guarantee": "256M", "limit": "1G"}
    assert _mebibytes(single["memory"]["guarantee"]) >= 225  # measured: 225 MB with the app open
    assert single["startTimeout"] == 120
    cull = VALUES["cull"]
    assert cull["enabled"] and not cull["users"]
    assert (cull["timeout"], cull["maxAge"]) == (servers["CULL_TIMEOUT"], servers["CULL_MAX_AGE"])
    assert f"{single['image']['name']}:{single['image']['tag']}" == _container(CLASSES[0])["image"]


def test_the_image_copies_what_the_wheel_is_built_from_and_the_app_the_classes_serve():
    dockerfile = (HERE / "Dockerfile").read_text(encoding="utf-8")
    copies = [line.split()[2:] for line in dockerfile.splitlines() if line.startswith("COPY ")]
    sources = {src for *srcs, _dst in copies for src in srcs}
    assert all((REPO / src).exists() for src in sources), sources
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    needed = set(pyproject["tool"]["hatch"]["build"]["targets"]["wheel"]["force-include"]) | {"pyproject.toml",
                                                                                               "README.md"}
    assert all(path.split("/")[0] in sources for path in needed), needed - sources
    extras = re.search(r'"/tmp/safari-kit\[([a-z,]+)\]"', dockerfile).group(1).split(",")
    assert set(extras) <= set(pyproject["project"]["optional-dependencies"]), extras
    assert "hub" in extras and "lab" in extras
    app = next(dst for *srcs, dst in copies if srcs == ["notebooks/app.ipynb"])
    for name in CLASSES:
        assert _container(name)["args"][1] == app
    assert "never run on a cluster" in (HERE / "z2jh-values.yaml").read_text(encoding="utf-8")
