import pytest
from sizes import human_size


def test_sizes():
    assert human_size(0) == "0 B"
    assert human_size(1023) == "1023 B"
    assert human_size(1024) == "1.0 KiB"
    assert human_size(5 * 1024 ** 3) == "5.0 GiB"
    assert human_size(1536 * 1024 ** 2) == "1.5 GiB"
    assert human_size(3 * 1024 ** 5) == "3072.0 TiB"
    with pytest.raises(ValueError):
        human_size(-1)
