"""Set-up shared by the board's tests without a browser: a test client of the app (skipped
without the board extra) and waiting for an analysis job."""

import time
import warnings

import pytest


@pytest.fixture(scope="session")
def board_client():
    """Open a Starlette test client on an app: ``with board_client(app) as client``, at
    127.0.0.1 (a host the board accepts). Skips the test without the board extra."""
    pytest.importorskip("starlette", reason="the board extra is not installed")
    with warnings.catch_warnings():  # Starlette 1.x would rather run its test client on httpx2
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    return lambda app, base_url="http://127.0.0.1": TestClient(app, base_url=base_url)


@pytest.fixture()
def client(board_client):
    """A test client of a board that serves no run folders."""
    from canasta_sim.board.app import create_app

    with board_client(create_app([])) as c:
        yield c


@pytest.fixture(scope="session")
def wait_job():
    """``wait_job(client, job, timeout=300)``: the status of analysis job ``job`` once it is
    no longer running; fails the test after ``timeout`` seconds."""

    def wait(client, job, timeout=300):
        t0 = time.time()
        while time.time() - t0 < timeout:
            status = client.get(f"/api/jobs/{job}").json()
            if status["state"] != "running":
                return status
            time.sleep(0.2)
        raise AssertionError(f"job {job} still running after {timeout} s")

    return wait
