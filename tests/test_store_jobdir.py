"""Partial samples mirrored to JOBDIR: restored by the next run, dropped once fitted, failures reported once."""

from __future__ import annotations

from scrapy_boilerplate.store.base import StoreError
from scrapy_boilerplate.store.jobdir import JobDirCoordinator


def coordinator(jobdir, errors=None) -> JobDirCoordinator:
    return JobDirCoordinator(jobdir, "spider", (errors if errors is not None else []).append)


def test_an_open_sample_is_restored_by_the_next_run_in_order(tmp_path):
    first = coordinator(tmp_path)
    for n in range(3):
        assert first.offer("spider", "a.example", f"http://a.example/{n}", f"<p>page {n}</p>", 10).accepted
    again = coordinator(tmp_path)
    assert again.open_samples("spider") == ["a.example"]
    assert again.pages("spider", "a.example") == [(f"http://a.example/{n}", f"<p>page {n}</p>") for n in range(3)]
    offer = again.offer("spider", "a.example", "http://a.example/3", "<p>page 3</p>", 10)
    assert offer.accepted and offer.count == 4
    assert coordinator(tmp_path).state("spider", "a.example").count == 4


def test_a_torn_last_line_is_skipped(tmp_path):
    first = coordinator(tmp_path)
    for n in range(2):
        first.offer("spider", "a.example", f"http://a.example/{n}", "<p>x</p>", 10)
    path = first.path("spider", "a.example")
    path.write_text(path.read_text() + '{"url": "http://a.example/2", "ht')  # killed mid-write
    assert coordinator(tmp_path).state("spider", "a.example").count == 2


def test_a_fitted_sample_is_not_kept_and_a_new_generation_starts_afresh(tmp_path):
    first = coordinator(tmp_path)
    first.offer("spider", "a.example", "http://a.example/0", "<p>x</p>", 10)
    first.offer("spider", "b.example", "http://b.example/0", "<p>x</p>", 10)
    first.finish_sample("spider", "a.example", 0)
    assert first.restart_sample("spider", "b.example", 0) == 1
    first.offer("spider", "b.example", "http://b.example/1", "<p>y</p>", 10)
    again = coordinator(tmp_path)
    assert again.open_samples("spider") == ["b.example"]
    assert again.state("spider", "b.example").generation == 1
    assert again.pages("spider", "b.example") == [("http://b.example/1", "<p>y</p>")]


def test_an_unwritable_job_directory_is_reported_once_and_sampling_goes_on(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    errors: list[StoreError] = []
    samples = coordinator(blocker, errors)
    for n in range(3):
        assert samples.offer("spider", "a.example", f"http://a.example/{n}", "<p>x</p>", 10).accepted
    assert len(errors) == 1 and errors[0].step == "job directory"
    assert samples.state("spider", "a.example").count == 3  # in memory, as without JOBDIR
