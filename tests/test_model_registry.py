"""The registry: models by name, user models registered for a while and the previous state restored."""

from __future__ import annotations

import pytest

from scrapy_boilerplate.models import UnknownModelError, available_models, create_model, get_model_class, registered
from scrapy_boilerplate.models.pvalue import PValueModel
from scrapy_boilerplate.models.registry import register, registry


class Shouting(PValueModel):
    """A user's model under a new name."""

    name = "test_shouting"


class OwnPValue(PValueModel):
    """A user's model under a built-in name."""

    name = "pvalue"


def test_a_model_registered_for_a_block_is_known_inside_it_and_unknown_after():
    with registered(Shouting) as cls:
        assert cls is Shouting
        assert "test_shouting" in available_models()
        assert isinstance(create_model("test_shouting"), Shouting)
    assert "test_shouting" not in available_models()
    with pytest.raises(UnknownModelError):
        create_model("test_shouting")


def test_a_built_in_name_taken_for_a_block_gives_the_built_in_model_back_after():
    with registry.registered(OwnPValue):
        assert get_model_class("pvalue") is OwnPValue
    assert get_model_class("pvalue") is PValueModel


def test_the_previous_model_comes_back_even_when_the_block_raises():
    with pytest.raises(RuntimeError), registered(Shouting):
        raise RuntimeError("the test failed")
    assert "test_shouting" not in available_models()


def test_only_site_models_can_be_registered():
    with pytest.raises(TypeError, match="not a SiteModel subclass"):
        register(dict)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="not a SiteModel subclass"), registered(object):  # type: ignore[arg-type]
        pass
    assert available_models() == sorted(available_models())
