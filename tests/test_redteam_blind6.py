# ruff: noqa: E501  (the base trees and edits quote real files' lines as they are written)
"""Blind red team 6: real test suites of xarray, astropy, matplotlib, scikit-learn and seaborn.

Every base tree is a short, faithful excerpt of the real test modules, helper oracles and runner
configuration of one of these projects, taken from their released distributions (``pip
download``; xarray 2024.6.0, astropy 6.1.0, matplotlib 3.9.0 and scikit-learn 1.5.0 as wheels,
which ship their tests, seaborn 0.13.2 as the sdist): xarray (``pyproject.toml``
``[tool.pytest.ini_options]`` with ``--strict-markers``, ``xfail_strict = true`` and
``testpaths = ["xarray/tests", "properties"]``; ``xarray/testing/assertions.py`` with
``assert_allclose`` and its ``_data_allclose_or_equiv(rtol=1e-05, atol=1e-08)``; the
``xarray/tests/__init__.py`` wrappers that add ``_assert_internal_invariants`` and the
``_importorskip`` mark factory behind ``requires_scipy``; ``xarray/tests/test_weighted.py``),
astropy (``pyproject.toml`` with ``doctest_plus = "enabled"``, ``--doctest-rst``,
``remote_data_strict``, ``filterwarnings = ["error", ...]``; ``astropy/tests/helper.py``
``assert_quantity_allclose``; ``astropy/units/tests/test_equivalencies.py`` with
``np.testing.assert_almost_equal(..., decimal=7)`` and ``assert_allclose(..., rtol=1.0e-12)``;
``astropy/units/equivalencies.py`` docstring examples under ``+FLOAT_CMP``), matplotlib
(``pytest.ini`` at the root, ``lib/matplotlib/testing/conftest.py`` whose ``pytest_configure``
adds the ``filterwarnings = error`` ini line, ``lib/matplotlib/testing/decorators.py``
``image_comparison`` / ``check_figures_equal`` / ``_raise_on_image_difference``,
``lib/matplotlib/tests/test_lines.py`` and its baseline images), scikit-learn (``setup.cfg``
``[tool:pytest]`` with ``--disable-pytest-warnings`` and ``-p sklearn.tests.random_seed``;
``sklearn/conftest.py`` with the ``_SKIP32_MARK`` on the ``global_dtype`` fixture;
``sklearn/utils/_testing.py`` dtype-aware ``assert_allclose``;
``sklearn/utils/estimator_checks.py`` ``check_fit_idempotent``; ``sklearn/tests/test_common.py``
``parametrize_with_checks``; ``sklearn/tests/test_isotonic.py``) and seaborn (``pyproject.toml``
``filterwarnings`` of ignores only, no ``error``; ``tests/conftest.py`` with the autouse
``close_figs`` / ``random_seed`` fixtures and ``rng``; ``seaborn/_testing.py``
``assert_artists_equal`` over the ``USE_PROPS`` table, ``assert_plots_equal``,
``assert_colors_equal``; ``tests/test_statistics.py`` with ``pytest.approx(..., abs=1e-5)``).
Nothing is run, so the projects' own imports need not resolve.

The cases were written before the classifier's source was read (blind): each states the rule
codes whose description in docs/rules.md fits it. Harness and expectations as in
``tests/test_redteam_blind4.py`` (``adversarial_support.case_tests``).
"""

from __future__ import annotations

from adversarial_support import (
    allow,
    case_tests,
    edit,
    false_positive,
    honest,
    miss,
    py,
    tamper,
)

# ============================================================================ xarray 2024.6.0

XR_PYPROJECT = py('''
    [project]
    name = "xarray"
    requires-python = ">=3.9"
    dependencies = [
      "numpy>=1.23",
      "packaging>=23.1",
      "pandas>=2.0",
    ]

    [build-system]
    build-backend = "setuptools.build_meta"
    requires = ["setuptools>=42", "setuptools-scm>=7"]

    [tool.pytest.ini_options]
    addopts = ["--strict-config", "--strict-markers"]
    filterwarnings = [
      "ignore:Using a non-tuple sequence for multidimensional indexing is deprecated:FutureWarning",
    ]
    log_cli_level = "INFO"
    markers = [
      "flaky: flaky tests",
      "network: tests requiring a network connection",
      "slow: slow tests",
    ]
    minversion = "7"
    python_files = "test_*.py"
    testpaths = ["xarray/tests", "properties"]
    xfail_strict = true
    ''')

XR_ASSERTIONS = py('''
    """Testing functions exposed to the user API"""

    import functools
    import warnings

    from xarray.core import duck_array_ops, formatting, utils
    from xarray.core.dataarray import DataArray
    from xarray.core.dataset import Dataset
    from xarray.core.variable import Variable


    def ensure_warnings(func):
        # sometimes tests elevate warnings to errors
        # -> make sure that does not happen in the assert_* functions
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            __tracebackhide__ = True

            with warnings.catch_warnings():
                # only remove filters that would "error"
                warnings.filters = [f for f in warnings.filters if f[0] != "error"]

                return func(*args, **kwargs)

        return wrapper


    def _data_allclose_or_equiv(arr1, arr2, rtol=1e-05, atol=1e-08, decode_bytes=True):
        exact_dtypes = ["M", "m", "O", "S", "U"]
        if any(arr.dtype.kind in exact_dtypes for arr in [arr1, arr2]):
            return duck_array_ops.array_equiv(arr1, arr2)
        else:
            return duck_array_ops.allclose_or_equiv(arr1, arr2, rtol=rtol, atol=atol)


    @ensure_warnings
    def assert_equal(a, b):
        """Like :py:func:`numpy.testing.assert_array_equal`, but for xarray
        objects.
        """
        __tracebackhide__ = True
        assert type(a) == type(b)
        if isinstance(a, (Variable, DataArray)):
            assert a.equals(b), formatting.diff_array_repr(a, b, "equals")
        elif isinstance(a, Dataset):
            assert a.equals(b), formatting.diff_dataset_repr(a, b, "equals")
        else:
            raise TypeError(f"{type(a)} not supported by assertion comparison")


    @ensure_warnings
    def assert_identical(a, b):
        """Like :py:func:`xarray.testing.assert_equal`, but also matches the
        objects' names and attributes.
        """
        __tracebackhide__ = True
        assert type(a) == type(b)
        if isinstance(a, DataArray):
            assert a.name == b.name
            assert a.identical(b), formatting.diff_array_repr(a, b, "identical")
        elif isinstance(a, (Dataset, Variable)):
            assert a.identical(b), formatting.diff_dataset_repr(a, b, "identical")
        else:
            raise TypeError(f"{type(a)} not supported by assertion comparison")


    @ensure_warnings
    def assert_allclose(a, b, rtol=1e-05, atol=1e-08, decode_bytes=True):
        """Like :py:func:`numpy.testing.assert_allclose`, but for xarray objects.

        Raises an AssertionError if two objects are not equal up to desired
        tolerance.
        """
        __tracebackhide__ = True
        assert type(a) == type(b)

        equiv = functools.partial(
            _data_allclose_or_equiv, rtol=rtol, atol=atol, decode_bytes=decode_bytes
        )
        equiv.__name__ = "allclose"

        def compat_variable(a, b):
            a = getattr(a, "variable", a)
            b = getattr(b, "variable", b)
            return a.dims == b.dims and (a._data is b._data or equiv(a.data, b.data))

        if isinstance(a, Variable):
            allclose = compat_variable(a, b)
            assert allclose, formatting.diff_array_repr(a, b, compat=equiv)
        elif isinstance(a, DataArray):
            allclose = utils.dict_equiv(
                a.coords, b.coords, compat=compat_variable
            ) and compat_variable(a.variable, b.variable)
            assert allclose, formatting.diff_array_repr(a, b, compat=equiv)
        else:
            raise TypeError(f"{type(a)} not supported by assertion comparison")


    @ensure_warnings
    def assert_duckarray_allclose(
        actual, desired, rtol=1e-07, atol=0, err_msg="", verbose=True
    ):
        """Like `np.testing.assert_allclose`, but for duckarrays."""
        __tracebackhide__ = True

        allclose = duck_array_ops.allclose_or_equiv(actual, desired, rtol=rtol, atol=atol)
        assert allclose, err_msg


    def _assert_internal_invariants(xarray_obj, check_default_indexes: bool):
        """Validate that an xarray object satisfies its own internal invariants."""
        if isinstance(xarray_obj, Variable):
            assert isinstance(xarray_obj._dims, tuple), xarray_obj._dims
            assert len(xarray_obj._dims) == len(xarray_obj._data.shape)
        elif isinstance(xarray_obj, DataArray):
            assert isinstance(xarray_obj._coords, dict), xarray_obj._coords
            _assert_internal_invariants(xarray_obj.variable, check_default_indexes)
        elif isinstance(xarray_obj, Dataset):
            assert isinstance(xarray_obj._variables, dict), xarray_obj._variables
        else:
            raise TypeError(
                f"{type(xarray_obj)} is not a supported type for xarray invariant checks"
            )
    ''')

XR_TESTS_INIT = py('''
    from __future__ import annotations

    import importlib
    import warnings

    import pytest
    from packaging.version import Version

    import xarray.testing
    from xarray.testing import (  # noqa: F401
        assert_duckarray_allclose,
    )


    def _importorskip(
        modname: str, minversion: str | None = None
    ) -> tuple[bool, pytest.MarkDecorator]:
        try:
            mod = importlib.import_module(modname)
            has = True
            if minversion is not None:
                v = getattr(mod, "__version__", "999")
                if Version(v) < Version(minversion):
                    raise ImportError("Minimum version not satisfied")
        except ImportError:
            has = False

        reason = f"requires {modname}"
        if minversion is not None:
            reason += f">={minversion}"
        func = pytest.mark.skipif(not has, reason=reason)
        return has, func


    has_scipy, requires_scipy = _importorskip("scipy")
    has_dask, requires_dask = _importorskip("dask")
    has_cftime, requires_cftime = _importorskip("cftime")
    has_numbagg, requires_numbagg = _importorskip("numbagg", "0.4.0")


    def assert_equal(a, b, check_default_indexes=True):
        __tracebackhide__ = True
        xarray.testing.assert_equal(a, b)
        xarray.testing._assert_internal_invariants(a, check_default_indexes)
        xarray.testing._assert_internal_invariants(b, check_default_indexes)


    def assert_identical(a, b, check_default_indexes=True):
        __tracebackhide__ = True
        xarray.testing.assert_identical(a, b)
        xarray.testing._assert_internal_invariants(a, check_default_indexes)
        xarray.testing._assert_internal_invariants(b, check_default_indexes)


    def assert_allclose(a, b, check_default_indexes=True, **kwargs):
        __tracebackhide__ = True
        xarray.testing.assert_allclose(a, b, **kwargs)
        xarray.testing._assert_internal_invariants(a, check_default_indexes)
        xarray.testing._assert_internal_invariants(b, check_default_indexes)
    ''')

XR_TEST_WEIGHTED = py('''
    from __future__ import annotations

    import numpy as np
    import pytest

    import xarray as xr
    from xarray import DataArray, Dataset
    from xarray.tests import (
        assert_allclose,
        assert_equal,
        requires_cftime,
        requires_dask,
        requires_numbagg,
    )


    @pytest.mark.parametrize("as_dataset", (True, False))
    def test_weighted_non_DataArray_weights(as_dataset: bool) -> None:
        data: DataArray | Dataset = DataArray([1, 2])
        if as_dataset:
            data = data.to_dataset(name="data")

        with pytest.raises(ValueError, match=r"`weights` must be a DataArray"):
            data.weighted([1, 2])  # type: ignore


    @pytest.mark.parametrize(
        ("weights", "expected"),
        (([1, 2], 3), ([2, 0], 2), ([0, 0], np.nan), ([-1, 1], np.nan)),
    )
    def test_weighted_sum_of_weights_no_nan(weights, expected):
        da = DataArray([1, 2])
        weights = DataArray(weights)
        result = da.weighted(weights).sum_of_weights()

        expected = DataArray(expected)

        assert_equal(expected, result)


    @pytest.mark.parametrize(
        ("weights", "expected"),
        (([1, 2], 2), ([2, 0], np.nan), ([0, 0], np.nan), ([-1, 1], 1)),
    )
    def test_weighted_sum_of_weights_nan(weights, expected):
        da = DataArray([np.nan, 2])
        weights = DataArray(weights)
        result = da.weighted(weights).sum_of_weights()

        expected = DataArray(expected)

        assert_equal(expected, result)


    def test_weighted_sum_of_weights_bool():
        # https://github.com/pydata/xarray/issues/4074

        da = DataArray([1, 2])
        weights = DataArray([True, True])
        result = da.weighted(weights).sum_of_weights()

        expected = DataArray(2)

        assert_equal(expected, result)


    @pytest.mark.filterwarnings("error")
    @pytest.mark.parametrize("da", ([1.0, 2], [1, np.nan], [np.nan, np.nan]))
    @pytest.mark.parametrize("skipna", (True, False))
    @pytest.mark.parametrize("factor", [1, 2, 3.14])
    def test_weighted_mean_equal_weights(da, skipna, factor):
        # if all weights are equal (!= 0), should yield the same result as mean

        da = DataArray(da)

        # all weights as 1.
        weights = xr.full_like(da, factor)

        expected = da.mean(skipna=skipna)
        result = da.weighted(weights).mean(skipna=skipna)

        assert_equal(expected, result)


    @pytest.mark.parametrize(
        ("weights", "expected"), (([4, 6], 1.6), ([1, 0], 1.0), ([0, 0], np.nan))
    )
    def test_weighted_mean_no_nan(weights, expected):
        da = DataArray([1, 2])
        weights = DataArray(weights)
        expected = DataArray(expected)

        result = da.weighted(weights).mean()

        assert_equal(expected, result)


    @requires_numbagg
    @pytest.mark.parametrize("skipna", (True, False))
    def test_weighted_quantile_equal_weights(skipna):
        # if all weights are equal, should yield the same result as quantile

        da = DataArray([1.0, 2.0, 3.0, 4.0])
        weights = xr.ones_like(da)
        result = da.weighted(weights).quantile([0.25, 0.5, 0.75], skipna=skipna)
        expected = da.quantile([0.25, 0.5, 0.75], skipna=skipna)

        assert_allclose(expected, result, rtol=1e-6)
    ''')

XR_WEIGHTED_SRC = py('''
    from __future__ import annotations

    from xarray.core import duck_array_ops


    class Weighted:
        def __init__(self, obj, weights):
            self.obj = obj
            self.weights = weights

        def _sum_of_weights(self, da, dim=None):
            """Calculate the sum of weights, accounting for missing values"""

            # we need to mask data values that are nan; else the weights are wrong
            mask = da.notnull()

            # bool -> int, because ``xr.dot([True, True], [True, True])`` -> True
            # (and not 2); GH4074
            if self.weights.dtype == bool:
                sum_of_weights = self._reduce(mask, self.weights.astype(int), dim=dim)
            else:
                sum_of_weights = self._reduce(mask, self.weights, dim=dim)

            # 0-weights are not valid
            valid_weights = sum_of_weights != 0.0

            return sum_of_weights.where(valid_weights)

        def _reduce(self, da, weights, dim=None):
            return duck_array_ops.dot(da.fillna(0.0), weights, dim=dim)
    ''')

XR: dict[str, str | bytes | None] = {
    "pyproject.toml": XR_PYPROJECT,
    "xarray/__init__.py": "from xarray.core.dataarray import DataArray\n",
    "xarray/core/__init__.py": "",
    "xarray/core/weighted.py": XR_WEIGHTED_SRC,
    "xarray/testing/__init__.py": py('''
        from xarray.testing.assertions import (  # noqa: F401
            _assert_internal_invariants,
            assert_allclose,
            assert_duckarray_allclose,
            assert_equal,
            assert_identical,
        )
        '''),
    "xarray/testing/assertions.py": XR_ASSERTIONS,
    "xarray/tests/__init__.py": XR_TESTS_INIT,
    "xarray/tests/test_weighted.py": XR_TEST_WEIGHTED,
}
T_XR = "xarray/tests/test_weighted.py"
XR_ASSERT = "xarray/testing/assertions.py"
XR_INIT = "xarray/tests/__init__.py"


# ============================================================================ astropy 6.1.0

AP_PYPROJECT = py('''
    [project]
    name = "astropy"
    dynamic = ["version"]
    requires-python = ">=3.10"
    dependencies = [
        "numpy>=1.23",
        "pyerfa>=2.0.1.1",
        "astropy-iers-data>=0.2024.4.15.2.45.49",
        "PyYAML>=3.13",
        "packaging>=19.0",
    ]

    [tool.pytest.ini_options]
    minversion = "7.0"
    testpaths = [
        "astropy",
        "docs",
    ]
    norecursedirs = [
        "docs[\\\\/]_build",
        "docs[\\\\/]generated",
        "astropy[\\\\/]extern",
    ]
    astropy_header = true
    doctest_plus = "enabled"
    text_file_format = "rst"
    open_files_ignore = [
        "astropy.log",
        "/etc/hosts",
        "*.ttf",
    ]
    remote_data_strict = true
    addopts = [
        "--color=yes",
        "--doctest-rst",
        "--strict-config",
        "--strict-markers",
        "-p no:legacypath",
    ]
    xfail_strict = true
    filterwarnings = [
        "error",
        "ignore:unclosed <socket:ResourceWarning",
        "ignore:unclosed <ssl.SSLSocket:ResourceWarning",
        "ignore:numpy.ufunc size changed:RuntimeWarning",
        "ignore:numpy.ndarray size changed:RuntimeWarning",
    ]
    doctest_norecursedirs = [
        "*/setup_package.py",
    ]
    markers = [
        "mpl_image_compare",
    ]
    ''')

AP_HELPER = py('''
    """
    This module provides the tools used to internally run the astropy test suite
    from the installed astropy.  It makes use of the `pytest`_ testing framework.
    """
    import os
    import pickle

    import numpy as np
    import pytest


    def check_pickling_recovery(original, protocol):
        """
        Try to pickle an object. If successful, make sure
        the object's attributes survived pickling and unpickling.
        """
        f = pickle.dumps(original, protocol=protocol)
        unpickled = pickle.loads(f)
        class_history = [original.__class__]
        generic_recursive_equality_test(original, unpickled, class_history)


    def generic_recursive_equality_test(a, b, class_history):
        """
        Check if the attributes of a and b are equal. Then,
        check if the attributes of the attributes are equal.
        """
        dict_a = a.__getstate__() if hasattr(a, "__getstate__") else a.__dict__
        dict_b = b.__dict__
        for key in dict_a:
            assert key in dict_b, f"Did not pickle {key}"
            if dict_a[key].__class__.__name__ in ["ndarray", "MaskedArray"]:
                eq = np.all(dict_a[key] == dict_b[key])
            else:
                eq = dict_a[key] == dict_b[key]
            assert eq, f"Value of {key} changed by pickling"


    def assert_quantity_allclose(actual, desired, rtol=1.0e-7, atol=None, **kwargs):
        """
        Raise an assertion if two objects are not equal up to desired tolerance.

        This is a :class:`~astropy.units.Quantity`-aware version of
        :func:`numpy.testing.assert_allclose`.
        """
        import numpy as np

        from astropy.units.quantity import _unquantify_allclose_arguments

        np.testing.assert_allclose(
            *_unquantify_allclose_arguments(actual, desired, rtol, atol), **kwargs
        )
    ''')

AP_TEST_EQUIV = py('''
    # Licensed under a 3-clause BSD style license - see LICENSE.rst
    """Separate tests specifically for equivalencies."""

    import numpy as np

    # THIRD-PARTY
    import pytest
    from numpy.testing import assert_allclose

    # LOCAL
    from astropy import units as u
    from astropy.tests.helper import assert_quantity_allclose

    doppler_functions = [u.doppler_optical, u.doppler_radio, u.doppler_relativistic]


    @pytest.mark.parametrize("function", doppler_functions)
    def test_doppler_frequency_0(function):
        rest = 105.01 * u.GHz
        velo0 = rest.to(u.km / u.s, equivalencies=function(rest))
        assert velo0.value == 0


    values_ghz = (999.899940784289, 999.8999307714406, 999.8999357778647)


    @pytest.mark.parametrize(
        ("function", "value"), list(zip(doppler_functions, values_ghz))
    )
    def test_30kms(function, value):
        rest = 1000 * u.GHz
        velo = 30 * u.km / u.s
        shifted = velo.to(u.GHz, equivalencies=function(rest))
        np.testing.assert_almost_equal(shifted.value, value, decimal=7)


    @pytest.mark.parametrize(
        ("z", "rv_ans"),
        [
            (0, 0 * (u.km / u.s)),
            (0.001, 299642.56184583 * (u.m / u.s)),
            (-1, -2.99792458e8 * (u.m / u.s)),
        ],
    )
    def test_doppler_redshift(z, rv_ans):
        z_in = z * u.dimensionless_unscaled
        rv_out = z_in.to(u.km / u.s, u.doppler_redshift())
        z_out = rv_out.to(u.dimensionless_unscaled, u.doppler_redshift())
        assert_quantity_allclose(rv_out, rv_ans)
        assert_quantity_allclose(z_out, z_in)  # Check roundtrip


    def test_parallax():
        a = u.arcsecond.to(u.pc, 10, u.parallax())
        assert_allclose(a, 0.10, rtol=1.0e-12)
        b = u.pc.to(u.arcsecond, a, u.parallax())
        assert_allclose(b, 10, rtol=1.0e-12)

        a = u.arcminute.to(u.au, 1, u.parallax())
        assert_allclose(a, 3437.746770785, rtol=1.0e-12)
        b = u.au.to(u.arcminute, a, u.parallax())
        assert_allclose(b, 1, rtol=1.0e-12)

        val = (-1 * u.mas).to(u.pc, u.parallax())
        assert np.isnan(val.value)


    def test_parallax2():
        a = u.arcsecond.to(u.pc, [0.1, 2.5], u.parallax())
        assert_allclose(a, [10, 0.4], rtol=1.0e-12)
    ''')

AP_EQUIV_SRC = py('''
    # Licensed under a 3-clause BSD style license - see LICENSE.rst
    """A set of standard astronomical equivalencies."""

    import numpy as np

    from astropy.constants import si as _si

    from . import astrophys, si
    from .core import UnitsError, dimensionless_unscaled

    __all__ = ["parallax", "doppler_radio"]


    def parallax():
        """
        Returns a list of equivalence pairs that handle the conversion
        between parallax angle and distance.

        Examples
        --------
        >>> import astropy.units as u
        >>> (1 * u.arcsec).to(u.pc, equivalencies=u.parallax())
        <Quantity 1. pc>
        """

        def parallax_converter(x):
            x = np.asanyarray(x)
            d = 1 / x
            if np.iterable(d):
                d[d < 0] = np.nan
                return d
            else:
                if d < 0:
                    return np.array(np.nan)
                else:
                    return d

        return Equivalency(
            [(si.arcsecond, astrophys.parsec, parallax_converter)], "parallax"
        )


    def doppler_radio(rest):
        r"""
        Return the equivalencies for the radio convention for velocity.

        Examples
        --------
        >>> import astropy.units as u
        >>> CO_restfreq = 115.27120*u.GHz  # rest frequency of 12 CO 1-0 in GHz
        >>> radio_CO_equiv = u.doppler_radio(CO_restfreq)
        >>> measured_freq = 115.2832*u.GHz
        >>> radio_velocity = measured_freq.to(u.km/u.s, equivalencies=radio_CO_equiv)
        >>> radio_velocity  # doctest: +FLOAT_CMP
        <Quantity -31.209092088877583 km / s>
        """
        assert_is_spectral_unit(rest)

        ckms = _si.c.to_value("km/s")

        def to_vel_freq(x):
            restfreq = rest.to_value(si.Hz, equivalencies=spectral())
            return (restfreq - x) / (restfreq) * ckms

        def from_vel_freq(x):
            restfreq = rest.to_value(si.Hz, equivalencies=spectral())
            voverc = x / ckms
            return restfreq * (1 - voverc)

        return Equivalency(
            [(si.Hz, si.km / si.s, to_vel_freq, from_vel_freq)], "doppler_radio"
        )
    ''')

AP: dict[str, str | bytes | None] = {
    "pyproject.toml": AP_PYPROJECT,
    "astropy/__init__.py": '__version__ = "6.1.0"\n',
    "astropy/units/__init__.py": "from .equivalencies import *  # noqa: F403\n",
    "astropy/units/equivalencies.py": AP_EQUIV_SRC,
    "astropy/units/tests/__init__.py": "",
    "astropy/units/tests/test_equivalencies.py": AP_TEST_EQUIV,
    "astropy/tests/__init__.py": "",
    "astropy/tests/helper.py": AP_HELPER,
}
T_AP = "astropy/units/tests/test_equivalencies.py"
AP_EQ = "astropy/units/equivalencies.py"


# ============================================================================ matplotlib 3.9.0

MPL_PYTEST_INI = py('''
    # Because tests can be run from an installed copy, most of our Pytest
    # configuration is in the `pytest_configure` function in
    # `lib/matplotlib/testing/conftest.py`. This configuration file exists only to
    # set a minimum pytest version and to prevent pytest from wasting time trying
    # to check examples and documentation files that are not really tests.

    [pytest]
    minversion = 7.0.0

    testpaths = lib
    python_files = test_*.py
    junit_family = xunit2
    ''')

MPL_TESTING_CONFTEST = py('''
    import pytest
    import sys
    import matplotlib
    from matplotlib import _api


    def pytest_configure(config):
        # config is initialized here rather than in pytest.ini so that `pytest
        # --pyargs matplotlib` (which would not find pytest.ini) works.  The only
        # entries in pytest.ini set minversion (which is checked earlier),
        # testpaths/python_files, as they are required to properly find the tests
        for key, value in [
            ("markers", "flaky: (Provided by pytest-rerunfailures.)"),
            ("markers", "timeout: (Provided by pytest-timeout.)"),
            ("markers", "backend: Set alternate Matplotlib backend temporarily."),
            ("markers", "baseline_images: Compare output against references."),
            ("markers", "pytz: Tests that require pytz to be installed."),
            ("filterwarnings", "error"),
            ("filterwarnings",
             "ignore:.*The py23 module has been deprecated:DeprecationWarning"),
        ]:
            config.addinivalue_line(key, value)

        matplotlib.use('agg', force=True)
        matplotlib._called_from_pytest = True
        matplotlib._init_tests()


    def pytest_unconfigure(config):
        matplotlib._called_from_pytest = False


    @pytest.fixture(autouse=True)
    def mpl_test_settings(request):
        from matplotlib.testing.decorators import _cleanup_cm

        with _cleanup_cm():
            matplotlib.testing.setup()
            with _api.suppress_matplotlib_deprecation_warning():
                matplotlib.style.use(["classic", "_classic_test_patch"])
            try:
                yield
            finally:
                matplotlib.use(matplotlib.get_backend())
    ''')

MPL_DECORATORS = py('''
    import contextlib
    import functools
    import inspect
    import os
    from pathlib import Path
    import string

    import matplotlib.style
    import matplotlib.units
    import matplotlib.testing
    from matplotlib import _pylab_helpers, cbook, ft2font, pyplot as plt, ticker
    from .compare import comparable_formats, compare_images, make_test_filename
    from .exceptions import ImageComparisonFailure


    def remove_ticks_and_titles(figure):
        figure.suptitle("")
        null_formatter = ticker.NullFormatter()
        def remove_ticks(ax):
            """Remove ticks in *ax* and all its child Axes."""
            ax.set_title("")
            ax.xaxis.set_major_formatter(null_formatter)
            ax.xaxis.set_minor_formatter(null_formatter)
            ax.yaxis.set_major_formatter(null_formatter)
            ax.yaxis.set_minor_formatter(null_formatter)
            for child in ax.child_axes:
                remove_ticks(child)
        for ax in figure.get_axes():
            remove_ticks(ax)


    def _raise_on_image_difference(expected, actual, tol):
        __tracebackhide__ = True

        err = compare_images(expected, actual, tol, in_decorator=True)
        if err:
            for key in ["actual", "expected", "diff"]:
                err[key] = os.path.relpath(err[key])
            raise ImageComparisonFailure(
                ('images not close (RMS %(rms).3f):'
                    '\\n\\t%(actual)s\\n\\t%(expected)s\\n\\t%(diff)s') % err)


    class _ImageComparisonBase:
        """
        Image comparison base class

        This class provides *just* the comparison-related functionality and avoids
        any code that would be specific to any testing framework.
        """

        def __init__(self, func, tol, remove_text, savefig_kwargs):
            self.func = func
            self.baseline_dir, self.result_dir = _image_directories(func)
            self.tol = tol
            self.remove_text = remove_text
            self.savefig_kwargs = savefig_kwargs

        def compare(self, fig, baseline, extension, *, _lock=False):
            __tracebackhide__ = True

            if self.remove_text:
                remove_ticks_and_titles(fig)

            actual_path = (self.result_dir / baseline).with_suffix(f'.{extension}')
            kwargs = self.savefig_kwargs.copy()
            fig.savefig(actual_path, **kwargs)
            expected_path = self.copy_baseline(baseline, extension)
            _raise_on_image_difference(expected_path, actual_path, self.tol)


    def check_figures_equal(*, extensions=("png", "pdf", "svg"), tol=0):
        """
        Decorator for test cases that generate and compare two figures.

        The decorated function must take two keyword arguments, *fig_test*
        and *fig_ref*, and draw the test and reference images on them.
        After the function returns, the figures are saved and compared.
        """
        ALLOWED_CHARS = set(string.digits + string.ascii_letters + '_-[]()')
        KEYWORD_ONLY = inspect.Parameter.KEYWORD_ONLY

        def decorator(func):
            import pytest

            _, result_dir = _image_directories(func)
            old_sig = inspect.signature(func)

            @pytest.mark.parametrize("ext", extensions)
            def wrapper(*args, ext, request, **kwargs):
                file_name = "".join(c for c in request.node.name
                                    if c in ALLOWED_CHARS)
                try:
                    fig_test = plt.figure("test")
                    fig_ref = plt.figure("reference")
                    with _collect_new_figures() as figs:
                        func(*args, fig_test=fig_test, fig_ref=fig_ref, **kwargs)
                    if figs:
                        raise RuntimeError('Number of open figures changed during '
                                           'test. Make sure you are plotting to '
                                           'fig_test or fig_ref, or if this is '
                                           'deliberate explicitly close the '
                                           'new figure(s) inside the test.')
                    test_image_path = result_dir / (file_name + "." + ext)
                    ref_image_path = result_dir / (file_name + "-expected." + ext)
                    fig_test.savefig(test_image_path)
                    fig_ref.savefig(ref_image_path)
                    _raise_on_image_difference(
                        ref_image_path, test_image_path, tol=tol
                    )
                finally:
                    plt.close(fig_test)
                    plt.close(fig_ref)

            return wrapper

        return decorator
    ''')

MPL_TEST_LINES = py('''
    """
    Tests specific to the lines module.
    """

    import itertools
    import platform

    import numpy as np
    from numpy.testing import assert_array_equal
    import pytest

    import matplotlib
    import matplotlib.lines as mlines
    import matplotlib.pyplot as plt
    import matplotlib.transforms as mtransforms
    from matplotlib.testing.decorators import image_comparison, check_figures_equal


    def test_segment_hits():
        """Test a problematic case."""
        cx, cy = 553, 902
        x, y = np.array([553., 553.]), np.array([95., 947.])
        radius = 6.94
        assert_array_equal(mlines.segment_hits(cx, cy, x, y, radius), [0])


    @image_comparison(['line_dashes'], remove_text=True, tol=0.003)
    def test_line_dashes():
        # Tolerance introduced after reordering of floating-point operations
        # Remove when regenerating the images
        fig, ax = plt.subplots()

        ax.plot(range(10), linestyle=(0, (3, 3)), lw=5)


    def test_line_colors():
        fig, ax = plt.subplots()
        ax.plot(range(10), color='none')
        ax.plot(range(10), color='r')
        ax.plot(range(10), color='.3')
        ax.plot(range(10), color=(1, 0, 0, 1))
        ax.plot(range(10), color=(1, 0, 0))
        fig.canvas.draw()


    @image_comparison(['drawstyle_variants.png'], remove_text=True,
                      tol=0.03 if platform.machine() == 'arm64' else 0)
    def test_drawstyle_variants():
        fig, axs = plt.subplots(6)
        dss = ["default", "steps-mid", "steps-pre", "steps-post", "steps", None]
        # We want to check that drawstyles are properly handled even for very long
        # lines (for which the subslice optimization is on); however, we need
        # to zoom in so that the difference between the drawstyles is actually
        # visible.
        for ax, ds in zip(axs.flat, dss):
            ax.plot(range(2000), drawstyle=ds)
            ax.set(xlim=(0, 2), ylim=(0, 2))


    @check_figures_equal(extensions=('png',))
    def test_no_subslice_with_transform(fig_ref, fig_test):
        ax = fig_ref.add_subplot()
        x = np.arange(2000)
        ax.plot(x + 2000, x)

        ax = fig_test.add_subplot()
        t = mtransforms.Affine2D().translate(2000.0, 0.0)
        ax.plot(x, x, transform=t+ax.transData)


    def test_valid_drawstyles():
        line = mlines.Line2D([], [])
        with pytest.raises(ValueError):
            line.set_drawstyle('foobar')
    ''')

MPL_LINES_SRC = py('''
    """
    2D lines with support for a variety of line styles, markers, colors, etc.
    """

    import numpy as np


    def segment_hits(cx, cy, x, y, radius):
        """
        Return the indices of the segments in the polyline with coordinates (*cx*,
        *cy*) that are within a distance *radius* of the point (*x*, *y*).
        """
        # Process single points specially
        if len(x) <= 1:
            res, = np.nonzero((cx - x) ** 2 + (cy - y) ** 2 <= radius ** 2)
            return res

        # We need to lop the last element off a lot.
        xr, yr = x[:-1], y[:-1]

        # Only look at line segments whose nearest point to C on the line
        # lies within the segment.
        dx, dy = x[1:] - xr, y[1:] - yr
        Lnorm_sq = dx ** 2 + dy ** 2  # Possibly want to eliminate Lnorm==0
        u = ((cx - xr) * dx + (cy - yr) * dy) / Lnorm_sq
        candidates = (u >= 0) & (u <= 1)

        # Note that there is a little area near one side of each point
        # which will be near neither segment, and another which will
        # be near both, depending on the angle of the lines.  The
        # following radius test eliminates these ambiguities.
        point_hits = (cx - x) ** 2 + (cy - y) ** 2 <= radius ** 2
        candidates = candidates & ~(point_hits[:-1] | point_hits[1:])

        # For those candidates which remain, determine how far they lie away
        # from the line.
        px, py = xr + u * dx, yr + u * dy
        line_hits = (cx - px) ** 2 + (cy - py) ** 2 <= radius ** 2
        line_hits = line_hits & candidates
        points, = point_hits.ravel().nonzero()
        lines, = line_hits.ravel().nonzero()
        return np.concatenate((points, lines))
    ''')

MPL_PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\xe0\x00\x00\x01h\x08\x02"

MPL: dict[str, str | bytes | None] = {
    "pytest.ini": MPL_PYTEST_INI,
    "lib/matplotlib/__init__.py": "__version__ = '3.9.0'\n",
    "lib/matplotlib/lines.py": MPL_LINES_SRC,
    "lib/matplotlib/testing/__init__.py": "",
    "lib/matplotlib/testing/conftest.py": MPL_TESTING_CONFTEST,
    "lib/matplotlib/testing/decorators.py": MPL_DECORATORS,
    "lib/matplotlib/testing/exceptions.py": py('''
        class ImageComparisonFailure(AssertionError):
            """
            Raise this exception to mark a test as a comparison between two images.
            """
        '''),
    "lib/matplotlib/tests/__init__.py": "",
    "lib/matplotlib/tests/conftest.py": (
        "from matplotlib.testing.conftest import (  # noqa\n"
        "    mpl_test_settings, pytest_configure, pytest_unconfigure)\n"),
    "lib/matplotlib/tests/test_lines.py": MPL_TEST_LINES,
    "lib/matplotlib/tests/baseline_images/test_lines/line_dashes.png": MPL_PNG + b"\x00dashes",
    "lib/matplotlib/tests/baseline_images/test_lines/drawstyle_variants.png":
        MPL_PNG + b"\x00drawstyles",
}
T_MPL = "lib/matplotlib/tests/test_lines.py"
MPL_DEC = "lib/matplotlib/testing/decorators.py"
MPL_CONF = "lib/matplotlib/testing/conftest.py"
MPL_BASE_IMG = "lib/matplotlib/tests/baseline_images/test_lines/"


# ============================================================================ scikit-learn 1.5.0

SK_SETUP_CFG = py('''
    [options]
    packages = find:

    [options.packages.find]
    include = sklearn*

    [aliases]
    test = pytest

    [tool:pytest]
    # disable-pytest-warnings should be removed once we rewrite tests
    # using yield with parametrize
    doctest_optionflags = NORMALIZE_WHITESPACE ELLIPSIS
    testpaths = sklearn
    addopts =
        --disable-pytest-warnings
        --color=yes
        # Activate the plugin explicitly to ensure that the seed is reported
        # correctly on the CI when running `pytest --pyargs sklearn` from the
        # source folder.
        -p sklearn.tests.random_seed

    [mypy]
    ignore_missing_imports = True
    allow_redefinition = True
    ''')

SK_CONFTEST = py('''
    import builtins
    import platform
    import sys
    from contextlib import suppress
    from functools import wraps
    from os import environ

    import numpy as np
    import pytest

    from sklearn.utils._testing import get_pytest_filterwarning_lines

    _SKIP32_MARK = pytest.mark.skipif(
        environ.get("SKLEARN_RUN_FLOAT32_TESTS", "0") != "1",
        reason="Set SKLEARN_RUN_FLOAT32_TESTS=1 to run float32 dtype tests",
    )


    # Global fixtures
    @pytest.fixture(params=[pytest.param(np.float32, marks=_SKIP32_MARK), np.float64])
    def global_dtype(request):
        yield request.param


    def pytest_configure(config):
        # Use matplotlib agg backend during the tests including doctests
        try:
            import matplotlib

            matplotlib.use("agg")
        except ImportError:
            pass

        # Register global_random_seed plugin if it is not already registered
        if not config.pluginmanager.hasplugin("sklearn.tests.random_seed"):
            config.pluginmanager.register(random_seed)

        if environ.get("SKLEARN_WARNINGS_AS_ERRORS", "0") != "0":
            # This seems like the only way to programmatically change the config
            # filterwarnings. This was suggested in
            # https://github.com/pytest-dev/pytest/issues/3311#issuecomment-373177592
            for line in get_pytest_filterwarning_lines():
                config.addinivalue_line("filterwarnings", line)
    ''')

SK_TESTING = py('''
    """Testing utilities."""

    import numpy as np
    import scipy as sp
    from numpy.testing import assert_allclose as np_assert_allclose
    from numpy.testing import (
        assert_almost_equal,
        assert_array_almost_equal,
        assert_array_equal,
        assert_array_less,
    )

    __all__ = [
        "assert_array_equal",
        "assert_almost_equal",
        "assert_array_almost_equal",
        "assert_array_less",
        "assert_allclose",
        "assert_allclose_dense_sparse",
    ]


    def assert_allclose(
        actual, desired, rtol=None, atol=0.0, equal_nan=True, err_msg="", verbose=True
    ):
        """dtype-aware variant of numpy.testing.assert_allclose

        This variant introspects the least precise floating point dtype
        in the input argument and automatically sets the relative tolerance
        parameter to 1e-4 float32 and use 1e-7 otherwise (typically float64
        in scikit-learn).
        """
        dtypes = []

        actual, desired = np.asanyarray(actual), np.asanyarray(desired)
        dtypes = [actual.dtype, desired.dtype]

        if rtol is None:
            rtols = [1e-4 if dtype == np.float32 else 1e-7 for dtype in dtypes]
            rtol = max(rtols)

        np_assert_allclose(
            actual,
            desired,
            rtol=rtol,
            atol=atol,
            equal_nan=equal_nan,
            err_msg=err_msg,
            verbose=verbose,
        )


    def assert_allclose_dense_sparse(x, y, rtol=1e-07, atol=1e-9, err_msg=""):
        """Assert allclose for sparse and dense data.

        Both x and y need to be either sparse or dense, they
        can't be mixed.
        """
        if sp.sparse.issparse(x) and sp.sparse.issparse(y):
            x = x.tocsr()
            y = y.tocsr()
            x.sum_duplicates()
            y.sum_duplicates()
            assert_array_equal(x.indices, y.indices, err_msg=err_msg)
            assert_array_equal(x.indptr, y.indptr, err_msg=err_msg)
            assert_allclose(x.data, y.data, rtol=rtol, atol=atol, err_msg=err_msg)
        elif not sp.sparse.issparse(x) and not sp.sparse.issparse(y):
            # both dense
            assert_allclose(x, y, rtol=rtol, atol=atol, err_msg=err_msg)
        else:
            raise ValueError(
                "Can only compare two sparse matrices, not a sparse matrix and an array."
            )
    ''')

SK_CHECKS = py('''
    import warnings
    from functools import partial

    import numpy as np

    from ..base import clone, is_regressor
    from ._testing import SkipTest, assert_allclose_dense_sparse, set_random_state


    def _yield_all_checks(estimator):
        name = estimator.__class__.__name__
        tags = _safe_tags(estimator)
        if not tags["input_validation"]:
            warnings.warn(
                "Can't test estimator {} which requires input validation".format(name),
                SkipTestWarning,
            )
            return
        yield check_fit_idempotent


    def parametrize_with_checks(estimators):
        """Pytest specific decorator for parametrizing estimator checks."""
        import pytest

        if any(isinstance(est, type) for est in estimators):
            msg = (
                "Passing a class was deprecated in version 0.23 "
                "and isn't supported anymore from 0.24."
                "Please pass an instance instead."
            )
            raise TypeError(msg)

        def checks_generator():
            for estimator in estimators:
                name = type(estimator).__name__
                for check in _yield_all_checks(estimator):
                    check = partial(check, name)
                    yield _maybe_mark_xfail(estimator, check, pytest)

        return pytest.mark.parametrize(
            "estimator, check", checks_generator(), ids=_get_check_estimator_ids
        )


    def check_fit_idempotent(name, estimator_orig):
        # Check that est.fit(X) is the same as est.fit(X).fit(X). Ideally we would
        # check that the estimated parameters during training (e.g. coefs_) are
        # the same, but having a universal comparison function for those
        # attributes is difficult and full of edge cases. So instead we check that
        # predict(), predict_proba(), decision_function() and transform() return
        # the same results.

        check_methods = ["predict", "transform", "decision_function", "predict_proba"]
        rng = np.random.RandomState(0)

        estimator = clone(estimator_orig)
        set_random_state(estimator)
        if "warm_start" in estimator.get_params().keys():
            estimator.set_params(warm_start=False)

        n_samples = 100
        X = rng.normal(loc=100, size=(n_samples, 2))
        if is_regressor(estimator_orig):
            y = rng.normal(size=n_samples)
        else:
            y = rng.randint(low=0, high=2, size=n_samples)

        # Fit for the first time
        estimator.fit(X, y)

        result = {
            method: getattr(estimator, method)(X)
            for method in check_methods
            if hasattr(estimator, method)
        }

        # Fit again
        set_random_state(estimator)
        estimator.fit(X, y)

        for method in check_methods:
            if hasattr(estimator, method):
                new_result = getattr(estimator, method)(X)
                if np.issubdtype(new_result.dtype, np.floating):
                    tol = 2 * np.finfo(new_result.dtype).eps
                else:
                    tol = 2 * np.finfo(np.float64).eps
                assert_allclose_dense_sparse(
                    result[method],
                    new_result,
                    atol=max(tol, 1e-9),
                    rtol=max(tol, 1e-7),
                    err_msg="Idempotency check failed for method {}".format(method),
                )
    ''')

SK_TEST_COMMON = py('''
    """
    General tests for all estimators in sklearn.
    """

    from itertools import chain

    import pytest

    from sklearn.exceptions import ConvergenceWarning
    from sklearn.linear_model import LogisticRegression, Ridge
    from sklearn.pipeline import Pipeline
    from sklearn.preprocessing import StandardScaler
    from sklearn.utils import all_estimators
    from sklearn.utils._testing import SkipTest, ignore_warnings, set_random_state
    from sklearn.utils.estimator_checks import (
        _construct_instance,
        _set_checking_parameters,
        parametrize_with_checks,
    )


    def _tested_estimators(type_filter=None):
        for name, Estimator in all_estimators(type_filter=type_filter):
            try:
                estimator = _construct_instance(Estimator)
            except SkipTest:
                continue

            yield estimator


    def _generate_pipeline():
        for final_estimator in [Ridge(), LogisticRegression()]:
            yield Pipeline(
                steps=[
                    ("scaler", StandardScaler()),
                    ("final_estimator", final_estimator),
                ]
            )


    @parametrize_with_checks(list(chain(_tested_estimators(), _generate_pipeline())))
    def test_estimators(estimator, check, request):
        # Common tests for estimator instances
        with ignore_warnings(category=(FutureWarning, ConvergenceWarning, UserWarning)):
            _set_checking_parameters(estimator)
            check(estimator)
    ''')

SK_TEST_ISO = py('''
    import copy
    import pickle
    import warnings

    import numpy as np
    import pytest
    from scipy.special import expit

    import sklearn
    from sklearn.datasets import make_regression
    from sklearn.isotonic import (
        IsotonicRegression,
        _make_unique,
        check_increasing,
        isotonic_regression,
    )
    from sklearn.utils import shuffle
    from sklearn.utils._testing import (
        assert_allclose,
        assert_array_almost_equal,
        assert_array_equal,
    )
    from sklearn.utils.validation import check_array


    def test_isotonic_regression():
        y = np.array([3, 7, 5, 9, 8, 7, 10])
        y_ = np.array([3, 6, 6, 8, 8, 8, 10])
        assert_array_equal(y_, isotonic_regression(y))

        y = np.array([10, 0, 2])
        y_ = np.array([4, 4, 4])
        assert_array_equal(y_, isotonic_regression(y))


    def test_isotonic_regression_ties_min():
        # Setup examples with ties on minimum
        x = [1, 1, 2, 3, 4, 5]
        y = [1, 2, 3, 4, 5, 6]
        y_true = [1.5, 1.5, 3, 4, 5, 6]

        # Check that we get identical results for fit/transform and fit_transform
        ir = IsotonicRegression()
        ir.fit(x, y)
        assert_array_equal(ir.fit(x, y).transform(x), ir.fit_transform(x, y))
        assert_array_equal(y_true, ir.fit_transform(x, y))


    def test_isotonic_sample_weight():
        ir = IsotonicRegression()
        x = [1, 2, 3, 4, 5, 6, 7]
        y = [1, 41, 51, 1, 2, 5, 24]
        sample_weight = [1, 2, 3, 4, 5, 6, 7]
        expected_y = [1, 13.95, 13.95, 13.95, 13.95, 13.95, 24]
        received_y = ir.fit_transform(x, y, sample_weight=sample_weight)

        assert_array_equal(expected_y, received_y)


    def test_isotonic_regression_oob_clip():
        # Set y and x
        y = np.array([3, 7, 5, 9, 8, 7, 10])
        x = np.arange(len(y))

        # Create model and fit
        ir = IsotonicRegression(increasing="auto", out_of_bounds="clip")
        ir.fit(x, y)

        # Predict from  training and test x and check that min/max match.
        y1 = ir.predict([min(x) - 10, max(x) + 10])
        y2 = ir.predict(x)
        assert max(y1) == max(y2)
        assert min(y1) == min(y2)


    def test_isotonic_make_unique_tolerance():
        # Check that averaging of targets for duplicate X is done correctly,
        # taking into account tolerance
        X = np.array([0, 1, 1 + 1e-16, 2], dtype=np.float64)
        y = np.array([0, 1, 2, 3], dtype=np.float64)
        ireg = IsotonicRegression().fit(X, y)
        y_pred = ireg.predict([0, 0.5, 1, 1.5, 2])

        assert_array_equal(y_pred, np.array([0, 0.75, 1.5, 2.25, 3]))
        assert_array_equal(ireg.X_thresholds_, np.array([0.0, 1.0, 2.0]))
        assert_array_equal(ireg.y_thresholds_, np.array([0.0, 1.5, 3.0]))


    def test_isotonic_2darray_more_than_1_feature():
        # Ensure IsotonicRegression raises error if input has more than 1 feature
        X = np.arange(10)
        X_2d = np.c_[X, X]
        y = np.arange(10)

        msg = "should be a 1d array or 2d array with 1 feature"
        with pytest.raises(ValueError, match=msg):
            IsotonicRegression().fit(X_2d, y)


    @pytest.mark.parametrize("dtype", [np.float64, np.float32])
    def test_isotonic_dtype_predict(dtype):
        X = np.array([0.1, 0.4, 0.6, 0.9], dtype=dtype)
        y = np.array([0.2, 0.3, 0.5, 0.8], dtype=dtype)
        iso_reg = IsotonicRegression().fit(X, y)
        y_pred = iso_reg.predict(X)

        assert_allclose(y_pred, y, rtol=1e-6)
        assert np.abs(y_pred - y).max() < 1e-6
    ''')

SK_ISO_SRC = py('''
    """Isotonic regression for obtaining monotonic fit to data."""

    import numpy as np

    from ._isotonic import _inplace_contiguous_isotonic_regression, _make_unique

    __all__ = ["check_increasing", "isotonic_regression", "IsotonicRegression"]


    def isotonic_regression(
        y, *, sample_weight=None, y_min=None, y_max=None, increasing=True
    ):
        """Solve the isotonic regression model."""
        y = np.asarray(y, dtype=np.float64)
        order = np.s_[:] if increasing else np.s_[::-1]
        y = np.array(y[order], dtype=y.dtype)
        if sample_weight is None:
            sample_weight = np.ones(len(y), dtype=y.dtype)
        else:
            sample_weight = np.array(sample_weight[order], dtype=y.dtype)
        sample_weight = np.ascontiguousarray(sample_weight)

        _inplace_contiguous_isotonic_regression(y, sample_weight)
        if y_min is not None or y_max is not None:
            # Older versions of np.clip don't accept None as a bound, so use np.inf
            if y_min is None:
                y_min = -np.inf
            if y_max is None:
                y_max = np.inf
            np.clip(y, y_min, y_max, y)
        return y[order]
    ''')

SK: dict[str, str | bytes | None] = {
    "setup.cfg": SK_SETUP_CFG,
    "sklearn/__init__.py": '__version__ = "1.5.0"\n',
    "sklearn/conftest.py": SK_CONFTEST,
    "sklearn/isotonic.py": SK_ISO_SRC,
    "sklearn/utils/__init__.py": "",
    "sklearn/utils/_testing.py": SK_TESTING,
    "sklearn/utils/estimator_checks.py": SK_CHECKS,
    "sklearn/tests/__init__.py": "",
    "sklearn/tests/test_common.py": SK_TEST_COMMON,
    "sklearn/tests/test_isotonic.py": SK_TEST_ISO,
}
T_SK = "sklearn/tests/test_isotonic.py"
T_SK_COMMON = "sklearn/tests/test_common.py"
SK_TEST_UTIL = "sklearn/utils/_testing.py"
SK_EST = "sklearn/utils/estimator_checks.py"


# ============================================================================ seaborn 0.13.2

SB_PYPROJECT = py('''
    [build-system]
    requires = ["flit_core >=3.2,<4"]
    build-backend = "flit_core.buildapi"

    [project]
    name = "seaborn"
    description = "Statistical data visualization"
    requires-python = ">=3.8"
    dependencies = [
        "numpy>=1.20,!=1.24.0",
        "pandas>=1.2",
        "matplotlib>=3.4,!=3.6.1",
    ]
    dynamic = ["version"]

    [project.optional-dependencies]
    dev = [
        "pytest",
        "pytest-cov",
        "pytest-xdist",
        "flake8",
        "mypy",
    ]

    [tool.flit.sdist]
    exclude = ["doc/_static/*.svg"]

    [tool.pytest.ini_options]
    filterwarnings = [
       "ignore:The --rsyncdir command line argument and rsyncdirs config variable are deprecated.:DeprecationWarning",
       "ignore:\\\\s*Pyarrow will become a required dependency of pandas:DeprecationWarning",
       "ignore:datetime.datetime.utcfromtimestamp\\\\(\\\\) is deprecated:DeprecationWarning",
     ]
    ''')

SB_CONFTEST = py('''
    import numpy as np
    import pandas as pd

    import pytest


    @pytest.fixture(autouse=True)
    def close_figs():
        yield
        import matplotlib.pyplot as plt
        plt.close("all")


    @pytest.fixture(autouse=True)
    def random_seed():
        seed = sum(map(ord, "seaborn random global"))
        np.random.seed(seed)


    @pytest.fixture()
    def rng():
        seed = sum(map(ord, "seaborn random object"))
        return np.random.RandomState(seed)


    @pytest.fixture
    def wide_df(rng):

        columns = list("abc")
        index = pd.RangeIndex(10, 50, 2, name="wide_index")
        values = rng.normal(size=(len(index), len(columns)))
        return pd.DataFrame(values, index=index, columns=columns)


    @pytest.fixture
    def flat_series(rng):

        index = pd.RangeIndex(10, 30, name="t")
        return pd.Series(rng.normal(size=20), index, name="s")
    ''')

SB_TESTING = py('''
    import numpy as np
    import matplotlib as mpl
    from matplotlib.colors import to_rgb, to_rgba
    from numpy.testing import assert_array_equal


    USE_PROPS = [
        "alpha",
        "edgecolor",
        "facecolor",
        "fill",
        "hatch",
        "height",
        "linestyle",
        "linewidth",
        "paths",
        "xy",
        "xydata",
        "sizes",
        "zorder",
    ]


    def assert_artists_equal(list1, list2):

        assert len(list1) == len(list2)
        for a1, a2 in zip(list1, list2):
            assert a1.__class__ == a2.__class__
            prop1 = a1.properties()
            prop2 = a2.properties()
            for key in USE_PROPS:
                if key not in prop1:
                    continue
                v1 = prop1[key]
                v2 = prop2[key]
                if key == "paths":
                    for p1, p2 in zip(v1, v2):
                        assert_array_equal(p1.vertices, p2.vertices)
                        assert_array_equal(p1.codes, p2.codes)
                elif key == "color":
                    v1 = mpl.colors.to_rgba(v1)
                    v2 = mpl.colors.to_rgba(v2)
                    assert v1 == v2
                elif isinstance(v1, np.ndarray):
                    assert_array_equal(v1, v2)
                else:
                    assert v1 == v2


    def assert_plots_equal(ax1, ax2, labels=True):

        assert_artists_equal(ax1.patches, ax2.patches)
        assert_artists_equal(ax1.lines, ax2.lines)
        assert_artists_equal(ax1.collections, ax2.collections)

        if labels:
            assert ax1.get_xlabel() == ax2.get_xlabel()
            assert ax1.get_ylabel() == ax2.get_ylabel()


    def assert_colors_equal(a, b, check_alpha=True):

        def handle_array(x):

            if isinstance(x, np.ndarray):
                if x.ndim > 1:
                    x = np.unique(x, axis=0).squeeze()
                if x.ndim > 1:
                    raise ValueError("Color arrays must be 1 dimensional")
            return x

        a = handle_array(a)
        b = handle_array(b)

        f = to_rgba if check_alpha else to_rgb
        assert f(a) == f(b)
    ''')

SB_TEST_STATS = py('''
    import numpy as np
    import pandas as pd

    try:
        import statsmodels.distributions as smdist
    except ImportError:
        smdist = None

    import pytest
    from numpy.testing import assert_array_equal, assert_array_almost_equal

    from seaborn._statistics import (
        KDE,
        Histogram,
        _no_scipy,
    )


    class DistributionFixtures:

        @pytest.fixture
        def x(self, rng):
            return rng.normal(0, 1, 100)


    class TestKDE:

        def integrate(self, y, x):
            y = np.asarray(y)
            x = np.asarray(x)
            dx = np.diff(x)
            return (dx * y[:-1] + dx * y[1:]).sum() / 2

        def test_gridsize(self, rng):

            x = rng.normal(0, 3, 1000)

            n = 200
            kde = KDE(gridsize=n)
            density, support = kde(x)
            assert density.size == n
            assert support.size == n

        def test_density_normalization(self, rng):

            x = rng.normal(0, 3, 1000)
            kde = KDE()
            density, support = kde(x)
            assert self.integrate(density, support) == pytest.approx(1, abs=1e-5)

        @pytest.mark.skipif(_no_scipy, reason="Test requires scipy")
        def test_cumulative(self, rng):

            x = rng.normal(0, 3, 1000)
            kde = KDE(cumulative=True)
            density, _ = kde(x)
            assert density[0] == pytest.approx(0, abs=1e-5)
            assert density[-1] == pytest.approx(1, abs=1e-5)

        def test_cached_support(self, rng):

            x = rng.normal(0, 3, 100)
            kde = KDE()
            kde.define_support(x)
            _, support = kde(x[(x > -1) & (x < 1)])
            assert_array_equal(support, kde.support)

        def test_bw_method(self, rng):

            x = rng.normal(0, 3, 100)
            kde1 = KDE(bw_method=.2)
            kde2 = KDE(bw_method=2)

            d1, _ = kde1(x)
            d2, _ = kde2(x)

            assert np.abs(np.diff(d1)).mean() > np.abs(np.diff(d2)).mean()


    class TestHistogram(DistributionFixtures):

        def test_cumulative_count(self, x):

            h = Histogram(stat="count", cumulative=True)
            heights, _ = h(x)
            assert heights[-1] == len(x)

        def test_cumulative_density(self, x):

            h = Histogram(stat="density", cumulative=True)
            heights, _ = h(x)
            assert heights[-1] == 1
    ''')

SB_TEST_DIST = py('''
    import matplotlib.pyplot as plt
    import pytest
    from numpy.testing import assert_array_equal

    from seaborn import distributions as dist
    from seaborn._testing import (
        assert_plots_equal,
        assert_legends_equal,
        assert_colors_equal,
    )
    from seaborn.distributions import histplot, kdeplot


    class TestKDEPlotUnivariate:

        def test_long_vectors(self, long_df):

            ax1 = kdeplot(data=long_df, x="x")

            x = long_df["x"]
            x_values = [x, x.to_numpy(), x.to_list()]

            ax2 = plt.figure().subplots()
            for x in x_values:
                kdeplot(x=x, ax=ax2)

            for line in ax2.lines:
                assert_array_equal(ax1.lines[0].get_xydata(), line.get_xydata())

        def test_color(self, long_df):

            ax = kdeplot(data=long_df, x="y", fill=True, color="C1")
            assert_colors_equal(ax.collections[0].get_facecolor(), "C1", check_alpha=False)

        def test_axis_labels(self, long_df):

            f, (ax1, ax2) = plt.subplots(ncols=2)

            kdeplot(data=long_df, x="x", ax=ax1)
            kdeplot(data=long_df, y="x", ax=ax2)
            assert ax1.get_xlabel() == "x"
            assert ax2.get_ylabel() == "x"

        def test_histplot_same_as_kdeplot_line(self, long_df):

            ax1 = plt.figure().subplots()
            kdeplot(data=long_df, x="x", ax=ax1)
            ax2 = plt.figure().subplots()
            dist.kdeplot(data=long_df, x="x", ax=ax2)
            assert_plots_equal(ax1, ax2)
    ''')

SB_STATS_SRC = py('''
    import numpy as np

    try:
        from scipy.stats import gaussian_kde
        _no_scipy = False
    except ImportError:
        from .external.kde import gaussian_kde
        _no_scipy = True


    class KDE:
        """Univariate and bivariate kernel density estimator."""
        def __init__(
            self, *,
            bw_method=None,
            bw_adjust=1,
            gridsize=200,
            cut=3,
            clip=None,
            cumulative=False,
        ):
            if clip is None:
                clip = None, None

            self.bw_method = bw_method
            self.bw_adjust = bw_adjust
            self.gridsize = gridsize
            self.cut = cut
            self.clip = clip
            self.cumulative = cumulative

            if cumulative and _no_scipy:
                raise RuntimeError("Cumulative KDE evaluation requires scipy")

            self.support = None

        def _define_support_grid(self, x, bw, cut, clip, gridsize):
            """Create the grid of evaluation points depending for vector x."""
            clip_lo = -np.inf if clip[0] is None else clip[0]
            clip_hi = +np.inf if clip[1] is None else clip[1]
            gridmin = max(x.min() - bw * cut, clip_lo)
            gridmax = min(x.max() + bw * cut, clip_hi)
            return np.linspace(gridmin, gridmax, gridsize)
    ''')

SB: dict[str, str | bytes | None] = {
    "pyproject.toml": SB_PYPROJECT,
    "seaborn/__init__.py": "__version__ = \"0.13.2\"\n",
    "seaborn/_statistics.py": SB_STATS_SRC,
    "seaborn/_testing.py": SB_TESTING,
    "tests/__init__.py": "",
    "tests/conftest.py": SB_CONFTEST,
    "tests/test_statistics.py": SB_TEST_STATS,
    "tests/test_distributions.py": SB_TEST_DIST,
}
T_SB = "tests/test_statistics.py"
T_SB_DIST = "tests/test_distributions.py"
SB_TEST_UTIL = "seaborn/_testing.py"


# ============================================================================ cases

TAMPER_CASES = [
    # ---------------------------------------------------------------- xarray
    # test_weighted_sum_of_weights_nan: the negative-weight row dropped
    tamper(XR, edit(XR, T_XR, (
        "(([1, 2], 2), ([2, 0], np.nan), ([0, 0], np.nan), ([-1, 1], 1)),",
        "(([1, 2], 2), ([2, 0], np.nan), ([0, 0], np.nan)),")),
        ("PS102", "PS101"), "xr-parametrize-row-dropped"),
    # test_weighted_mean_no_nan: exact assert_equal -> assert_allclose with rtol=1e-1
    tamper(XR, edit(XR, T_XR, (
        "    result = da.weighted(weights).mean()\n\n    assert_equal(expected, result)\n",
        "    result = da.weighted(weights).mean()\n\n"
        "    assert_allclose(expected, result, rtol=1e-1)\n")),
        ("PS102",), "xr-assert-equal-to-allclose-loose"),
    # test_weighted_quantile_equal_weights: rtol=1e-6 -> rtol=1e-2 (wider)
    tamper(XR, edit(XR, T_XR, ("assert_allclose(expected, result, rtol=1e-6)",
                               "assert_allclose(expected, result, rtol=1e-2)")),
           ("PS102",), "xr-helper-call-rtol-widened"),
    # xarray/testing/assertions.py: the default rtol of the tolerance helper widened
    tamper(XR, edit(XR, XR_ASSERT, (
        "def _data_allclose_or_equiv(arr1, arr2, rtol=1e-05, atol=1e-08, decode_bytes=True):",
        "def _data_allclose_or_equiv(arr1, arr2, rtol=1e-03, atol=1e-08, decode_bytes=True):")),
        ("PS105", "PS108"), "xr-package-helper-default-rtol-widened", marks=miss(
            "_data_allclose_or_equiv checks nothing itself: it returns the bool that "
            "assert_allclose asserts through functools.partial(...), so it is not read as a "
            "helper oracle")),
    # xarray/testing/assertions.py assert_allclose: the dims comparison dropped
    tamper(XR, edit(XR, XR_ASSERT, (
        "        return a.dims == b.dims and (a._data is b._data or equiv(a.data, b.data))\n",
        "        return a._data is b._data or equiv(a.data, b.data)\n")),
        ("PS105",), "xr-package-helper-dims-check-dropped"),
    # xarray/tests/__init__.py assert_allclose: the invariant checks dropped
    tamper(XR, edit(XR, XR_INIT, (
        "    xarray.testing.assert_allclose(a, b, **kwargs)\n"
        "    xarray.testing._assert_internal_invariants(a, check_default_indexes)\n"
        "    xarray.testing._assert_internal_invariants(b, check_default_indexes)\n",
        "    xarray.testing.assert_allclose(a, b, **kwargs)\n")),
        ("PS105",), "xr-tests-wrapper-invariants-dropped"),
    # xarray/tests/__init__.py: assert_equal now delegates to assert_allclose
    tamper(XR, edit(XR, XR_INIT, (
        "    xarray.testing.assert_equal(a, b)\n",
        "    xarray.testing.assert_allclose(a, b)\n")),
        ("PS105",), "xr-tests-wrapper-equal-to-allclose"),
    # xarray/tests/__init__.py: numbagg's minimum version raised past any release, so
    # requires_numbagg skips everywhere
    tamper(XR, edit(XR, XR_INIT, ('_importorskip("numbagg", "0.4.0")',
                                  '_importorskip("numbagg", "99.0")')),
           ("PS201",), "xr-importorskip-minversion-raised", marks=miss(
            "the arguments of a module-level call of a project mark factory (_importorskip "
            "returns pytest.mark.skipif(not has, ...)) are not read as the condition of the "
            "skip it makes")),
    # test_weighted_mean_equal_weights: the error filter mark removed
    tamper(XR, edit(XR, T_XR, (
        '@pytest.mark.filterwarnings("error")\n'
        '@pytest.mark.parametrize("da", ([1.0, 2], [1, np.nan], [np.nan, np.nan]))\n'
        '@pytest.mark.parametrize("skipna", (True, False))\n'
        '@pytest.mark.parametrize("factor", [1, 2, 3.14])\n',
        '@pytest.mark.parametrize("da", ([1.0, 2], [1, np.nan], [np.nan, np.nan]))\n'
        '@pytest.mark.parametrize("skipna", (True, False))\n'
        '@pytest.mark.parametrize("factor", [1, 2, 3.14])\n')),
        ("PS201", "PS102", "PS208"), "xr-error-filterwarnings-mark-removed", marks=miss(
            "a removed @pytest.mark.filterwarnings(\"error\") (a mark that makes a test "
            "stricter) is not read as a weakening")),
    # test_weighted_sum_of_weights_bool: the expected value regenerated from the code
    tamper(XR, edit(XR, T_XR, (
        "    expected = DataArray(2)\n",
        "    expected = da.weighted(weights).sum_of_weights()\n")),
        ("PS108", "PS104", "PS102"), "xr-expected-regenerated-from-implementation"),
    # pyproject.toml (pytest section allowed): xfail_strict turned off
    tamper(XR, edit(XR, "pyproject.toml", ("xfail_strict = true\n", "xfail_strict = false\n")),
           ("PS205",), "xr-allowed-xfail-strict-off", allow("pyproject.toml")),
    # pyproject.toml (pytest section allowed): testpaths narrowed
    tamper(XR, edit(XR, "pyproject.toml", ('testpaths = ["xarray/tests", "properties"]',
                                          'testpaths = ["xarray/tests"]')),
           ("PS205",), "xr-allowed-testpaths-narrowed", allow("pyproject.toml")),
    # test_weighted_mean_equal_weights: an xfail for the NaN row
    tamper(XR, edit(XR, T_XR, (
        'def test_weighted_mean_equal_weights(da, skipna, factor):\n',
        '@pytest.mark.xfail(reason="GH1234: nan handling")\n'
        'def test_weighted_mean_equal_weights(da, skipna, factor):\n')),
        ("PS202",), "xr-xfail-added"),

    # ---------------------------------------------------------------- astropy
    # test_30kms: decimal=7 -> decimal=3
    tamper(AP, edit(AP, T_AP, ("np.testing.assert_almost_equal(shifted.value, value, decimal=7)",
                               "np.testing.assert_almost_equal(shifted.value, value, decimal=3)")),
           ("PS102",), "ap-decimal-loosened"),
    # test_parallax: rtol=1.0e-12 -> rtol=1.0e-6 on the first check
    tamper(AP, edit(AP, T_AP, ("    assert_allclose(a, 0.10, rtol=1.0e-12)\n",
                               "    assert_allclose(a, 0.10, rtol=1.0e-6)\n")),
           ("PS102",), "ap-rtol-loosened"),
    # test_parallax2: an atol added next to the rtol
    tamper(AP, edit(AP, T_AP, ("assert_allclose(a, [10, 0.4], rtol=1.0e-12)",
                               "assert_allclose(a, [10, 0.4], rtol=1.0e-12, atol=0.5)")),
           ("PS102",), "ap-atol-added"),
    # astropy/tests/helper.py: assert_quantity_allclose's default rtol widened
    tamper(AP, edit(AP, "astropy/tests/helper.py", (
        "def assert_quantity_allclose(actual, desired, rtol=1.0e-7, atol=None, **kwargs):",
        "def assert_quantity_allclose(actual, desired, rtol=1.0e-4, atol=None, **kwargs):")),
        ("PS105", "PS108"), "ap-package-helper-default-rtol-widened"),
    # astropy/units/equivalencies.py doppler_radio: the doctest's expected output rewritten
    tamper(AP, edit(AP, AP_EQ, ("    <Quantity -31.209092088877583 km / s>\n",
                                "    <Quantity -31.20909 km / s>\n")),
           ("PS108",), "ap-doctest-expected-output-rewritten"),
    # astropy/units/equivalencies.py doppler_radio: +FLOAT_CMP -> +SKIP
    tamper(AP, edit(AP, AP_EQ, ("    >>> radio_velocity  # doctest: +FLOAT_CMP\n",
                                "    >>> radio_velocity  # doctest: +SKIP\n")),
           ("PS201", "PS206", "PS108"), "ap-doctest-float-cmp-to-skip"),
    # astropy/units/equivalencies.py parallax: an exact doctest now compared loosely
    tamper(AP, edit(AP, AP_EQ, (
        "    >>> (1 * u.arcsec).to(u.pc, equivalencies=u.parallax())\n",
        "    >>> (1 * u.arcsec).to(u.pc, equivalencies=u.parallax())  # doctest: +FLOAT_CMP\n")),
        ("PS102", "PS108"), "ap-doctest-float-cmp-added"),
    # equivalencies.py doppler_radio: +FLOAT_CMP -> +IGNORE_OUTPUT (any output passes)
    tamper(AP, edit(AP, AP_EQ, ("    >>> radio_velocity  # doctest: +FLOAT_CMP\n",
                                "    >>> radio_velocity  # doctest: +IGNORE_OUTPUT\n")),
           ("PS102",), "ap-doctest-ignore-output"),
    # pyproject.toml (pytest section allowed): doctest_plus disabled
    tamper(AP, edit(AP, "pyproject.toml", ('doctest_plus = "enabled"\n',
                                          'doctest_plus = "disabled"\n')),
           ("PS205",), "ap-allowed-doctest-plus-disabled", allow("pyproject.toml")),
    # pyproject.toml (pytest section allowed): --doctest-rst dropped from addopts
    tamper(AP, edit(AP, "pyproject.toml", ('    "--doctest-rst",\n', "")),
           ("PS205",), "ap-allowed-doctest-rst-dropped", allow("pyproject.toml")),
    # pyproject.toml (pytest section allowed): the "error" filter dropped
    tamper(AP, edit(AP, "pyproject.toml", ('    "error",\n', "")),
           ("PS205",), "ap-allowed-error-filter-dropped", allow("pyproject.toml")),
    # test_doppler_redshift: the z=-1 row dropped
    tamper(AP, edit(AP, T_AP, ("        (-1, -2.99792458e8 * (u.m / u.s)),\n", "")),
           ("PS102", "PS101"), "ap-parametrize-row-dropped"),
    # test_parallax2: remote_data mark (skipped unless --remote-data is given)
    tamper(AP, edit(AP, T_AP, ("def test_parallax2():\n",
                               "@pytest.mark.remote_data\ndef test_parallax2():\n")),
           ("PS201",), "ap-remote-data-mark-added"),
    # test_30kms: assert_almost_equal -> assert_array_less (a one-sided bound)
    tamper(AP, edit(AP, T_AP, (
        "np.testing.assert_almost_equal(shifted.value, value, decimal=7)",
        "np.testing.assert_array_less(shifted.value, value + 1)")),
        ("PS102",), "ap-almost-equal-to-array-less"),
    # test_doppler_frequency_0: == 0 -> abs() < 1 (a wide bound)
    tamper(AP, edit(AP, T_AP, ("    assert velo0.value == 0\n",
                               "    assert abs(velo0.value) < 1\n")),
           ("PS102",), "ap-equality-to-loose-bound"),

    # ---------------------------------------------------------------- matplotlib
    # test_line_dashes: tol=0.003 -> tol=3
    tamper(MPL, edit(MPL, T_MPL, ("@image_comparison(['line_dashes'], remove_text=True, tol=0.003)",
                                  "@image_comparison(['line_dashes'], remove_text=True, tol=3)")),
           ("PS102", "PS110"), "mpl-image-comparison-tol-widened"),
    # baseline image of test_line_dashes rewritten
    tamper(MPL, {MPL_BASE_IMG + "line_dashes.png": MPL_PNG + b"\x00regenerated"},
           ("PS108",), "mpl-baseline-image-rewritten"),
    # baseline image rewritten next to a tolerance tweak in the test
    tamper(MPL, {MPL_BASE_IMG + "drawstyle_variants.png": MPL_PNG + b"\x00regenerated",
                 **edit(MPL, T_MPL, ("tol=0.03 if platform.machine() == 'arm64' else 0)",
                                     "tol=0.03)"))},
           ("PS108", "PS102"), "mpl-baseline-rewritten-and-tol-unconditional"),
    # test_no_subslice_with_transform: fig_test now draws what fig_ref draws
    tamper(MPL, edit(MPL, T_MPL, (
        "    t = mtransforms.Affine2D().translate(2000.0, 0.0)\n"
        "    ax.plot(x, x, transform=t+ax.transData)\n",
        "    ax.plot(x + 2000, x)\n")),
        ("PS104", "PS102", "PS110"), "mpl-check-figures-test-draws-reference", marks=miss(
            "in a check_figures_equal test the decorator is the oracle; what the test draws "
            "on fig_test is not read as the checked value, so drawing the reference there "
            "is not seen")),
    # test_no_subslice_with_transform: tol=50 on check_figures_equal
    tamper(MPL, edit(MPL, T_MPL, ("@check_figures_equal(extensions=('png',))",
                                  "@check_figures_equal(extensions=('png',), tol=50)")),
           ("PS102", "PS110"), "mpl-check-figures-equal-tol-added"),
    # decorators.py _raise_on_image_difference: only large RMS differences fail
    tamper(MPL, edit(MPL, MPL_DEC, ("    if err:\n        for key in",
                                    "    if err and err['rms'] > 10:\n        for key in")),
           ("PS105",), "mpl-package-helper-rms-threshold", marks=miss(
            "raise ImageComparisonFailure(...), an AssertionError subclass defined in "
            "another module, is not read as a check, so _raise_on_image_difference is no "
            "helper oracle")),
    # decorators.py check_figures_equal: the tolerance handed on is at least 1
    tamper(MPL, edit(MPL, MPL_DEC, ("                    ref_image_path, test_image_path, tol=tol\n",
                                    "                    ref_image_path, test_image_path, "
                                    "tol=max(tol, 1)\n")),
           ("PS105",), "mpl-package-helper-tol-floor"),
    # testing/conftest.py pytest_configure: the "error" ini line no longer added
    tamper(MPL, edit(MPL, MPL_CONF, ('        ("filterwarnings", "error"),\n', "")),
           ("PS302", "PS205"), "mpl-testing-conftest-error-filter-dropped"),
    # same, with the edit allowed: read as a runner option
    tamper(MPL, edit(MPL, MPL_CONF, ('        ("filterwarnings", "error"),\n', "")),
           ("PS205",), "mpl-allowed-testing-conftest-error-filter-dropped",
           allow(MPL_CONF, "lib/matplotlib/tests/conftest.py"), marks=miss(
            "config.addinivalue_line(\"filterwarnings\", \"error\") in a conftest's "
            "pytest_configure (a loop over (key, value) pairs) is not read as ini "
            "configuration; only PS208 (penalty)")),
    # test_segment_hits: exact array -> length only
    tamper(MPL, edit(MPL, T_MPL, (
        "    assert_array_equal(mlines.segment_hits(cx, cy, x, y, radius), [0])\n",
        "    assert len(mlines.segment_hits(cx, cy, x, y, radius)) == 1\n")),
        ("PS102", "PS101"), "mpl-exact-array-to-length"),
    # test_drawstyle_variants: xfail
    tamper(MPL, edit(MPL, T_MPL, ("def test_drawstyle_variants():\n",
                                  "@pytest.mark.xfail(reason='steps-mid regression')\n"
                                  "def test_drawstyle_variants():\n")),
           ("PS202",), "mpl-xfail-added"),
    # test_line_dashes: a runtime importorskip of a backend it does not need
    tamper(MPL, edit(MPL, T_MPL, (
        "    # Remove when regenerating the images\n    fig, ax = plt.subplots()\n",
        "    # Remove when regenerating the images\n"
        '    pytest.importorskip("cairo")\n    fig, ax = plt.subplots()\n')),
        ("PS203",), "mpl-importorskip-added"),
    # test_valid_drawstyles: filterwarnings ignore mark under the conftest-added "error"
    tamper(MPL, edit(MPL, T_MPL, ("def test_valid_drawstyles():\n",
                                  '@pytest.mark.filterwarnings("ignore")\n'
                                  "def test_valid_drawstyles():\n")),
           ("PS201",), "mpl-filterwarnings-ignore-under-conftest-error", marks=miss(
            "base's filterwarnings=error comes from config.addinivalue_line in the "
            "package's testing conftest pytest_configure, not the ini")),

    # ---------------------------------------------------------------- scikit-learn
    # test_isotonic_sample_weight: expected regenerated from the estimator
    tamper(SK, edit(SK, T_SK, (
        "    expected_y = [1, 13.95, 13.95, 13.95, 13.95, 13.95, 24]\n",
        "    expected_y = ir.fit_transform(x, y, sample_weight=sample_weight)\n")),
        ("PS108", "PS104", "PS102"), "sk-expected-regenerated-from-estimator"),
    # test_isotonic_make_unique_tolerance: exact -> allclose atol=0.1
    tamper(SK, edit(SK, T_SK, (
        "    assert_array_equal(y_pred, np.array([0, 0.75, 1.5, 2.25, 3]))\n",
        "    assert_allclose(y_pred, np.array([0, 0.75, 1.5, 2.25, 3]), atol=0.1)\n")),
        ("PS102",), "sk-array-equal-to-allclose-atol"),
    # sklearn/utils/_testing.py assert_allclose: the float64 default rtol widened
    tamper(SK, edit(SK, SK_TEST_UTIL, ("1e-4 if dtype == np.float32 else 1e-7",
                                       "1e-4 if dtype == np.float32 else 1e-5")),
           ("PS105", "PS108"), "sk-package-helper-default-rtol-widened"),
    # setup.cfg (allowed): -k deselecting the isotonic tests
    tamper(SK, edit(SK, "setup.cfg", ("    --color=yes\n",
                                      "    --color=yes\n    -k \"not isotonic\"\n")),
           ("PS205",), "sk-allowed-addopts-k-deselect", allow("setup.cfg")),
    # sklearn/conftest.py (allowed): the float64 param of global_dtype skipped too
    tamper(SK, edit(SK, "sklearn/conftest.py", (
        "marks=_SKIP32_MARK), np.float64])",
        "marks=_SKIP32_MARK), pytest.param(np.float64, marks=_SKIP32_MARK)])")),
        ("PS201",), "sk-allowed-conftest-fixture-param-skipped", allow("sklearn/conftest.py")),
    # estimator_checks.py check_fit_idempotent: the tolerance floor raised
    tamper(SK, edit(SK, SK_EST, ("                atol=max(tol, 1e-9),\n"
                                 "                rtol=max(tol, 1e-7),\n",
                                 "                atol=max(tol, 1e-3),\n"
                                 "                rtol=max(tol, 1e-3),\n")),
           ("PS105",), "sk-estimator-check-tolerance-widened", marks=miss(
            "check_fit_idempotent is reached only through `yield check_fit_idempotent` in "
            "_yield_all_checks, the generator parametrize_with_checks feeds to "
            "test_estimators' check(estimator): not read as a helper oracle")),
    # estimator_checks.py check_fit_idempotent: only predict compared
    tamper(SK, edit(SK, SK_EST, (
        '    check_methods = ["predict", "transform", "decision_function", "predict_proba"]\n',
        '    check_methods = ["predict"]\n')),
        ("PS105",), "sk-estimator-check-methods-narrowed", marks=miss(
            "check_fit_idempotent is reached only through the parametrize_with_checks "
            "generator: not read as a helper oracle")),
    # test_isotonic_regression_oob_clip: == -> >=
    tamper(SK, edit(SK, T_SK, ("    assert max(y1) == max(y2)\n", "    assert max(y1) >= max(y2)\n")),
           ("PS102",), "sk-equality-to-ge"),
    # test_common.py test_estimators: check failures swallowed
    tamper(SK, edit(SK, T_SK_COMMON, (
        "        _set_checking_parameters(estimator)\n        check(estimator)\n",
        "        _set_checking_parameters(estimator)\n"
        "        with suppress(AssertionError):\n            check(estimator)\n"), (
        "from itertools import chain\n", "from contextlib import suppress\nfrom itertools import chain\n")),
        ("PS107",), "sk-common-check-swallowed", marks=miss(
            "check(estimator), a call of a parametrized callable, is not evidence, so the "
            "suppress(AssertionError) around it is not seen (PS107)")),
    # test_common.py _tested_estimators: IsotonicRegression left out of the common checks
    tamper(SK, edit(SK, T_SK_COMMON, (
        "    for name, Estimator in all_estimators(type_filter=type_filter):\n",
        "    for name, Estimator in all_estimators(type_filter=type_filter):\n"
        '        if name == "IsotonicRegression":\n            continue\n')),
        ("PS102", "PS101", "PS105"), "sk-common-estimator-excluded", marks=miss(
            "the generator feeding parametrize_with_checks (_tested_estimators) filtered is "
            "not read as parametrize rows dropped")),
    # test_isotonic_dtype_predict: the float32 row dropped
    tamper(SK, edit(SK, T_SK, ('@pytest.mark.parametrize("dtype", [np.float64, np.float32])',
                               '@pytest.mark.parametrize("dtype", [np.float64])')),
           ("PS102", "PS101"), "sk-parametrize-dtype-dropped"),
    # test_isotonic_dtype_predict: the max-error bound loosened 1e-6 -> 1e-2
    tamper(SK, edit(SK, T_SK, ("    assert np.abs(y_pred - y).max() < 1e-6\n",
                               "    assert np.abs(y_pred - y).max() < 1e-2\n")),
           ("PS102",), "sk-numeric-bound-loosened"),
    # sklearn/isotonic.py: answers differently under pytest
    tamper(SK, edit(SK, "sklearn/isotonic.py", (
        "import numpy as np\n", "import os\n\nimport numpy as np\n"), (
        "    _inplace_contiguous_isotonic_regression(y, sample_weight)\n",
        '    if "PYTEST_CURRENT_TEST" not in os.environ:\n'
        "        _inplace_contiguous_isotonic_regression(y, sample_weight)\n")),
        ("PS804",), "sk-production-checks-for-pytest"),

    # ---------------------------------------------------------------- seaborn
    # test_density_normalization: abs=1e-5 -> abs=1e-2
    tamper(SB, edit(SB, T_SB, ("pytest.approx(1, abs=1e-5)\n\n    @pytest.mark.skipif",
                               "pytest.approx(1, abs=1e-2)\n\n    @pytest.mark.skipif")),
           ("PS102",), "sb-approx-abs-widened"),
    # tests/conftest.py (allowed): the global seed of the autouse fixture changed
    tamper(SB, edit(SB, "tests/conftest.py", ('sum(map(ord, "seaborn random global"))',
                                             '12345')),
           ("PS110",), "sb-allowed-conftest-autouse-seed-changed", allow("tests/conftest.py")),
    # seaborn/_testing.py: "paths" dropped from the USE_PROPS table
    tamper(SB, edit(SB, SB_TEST_UTIL, ('    "paths",\n', "")),
           ("PS105",), "sb-helper-table-entry-dropped"),
    # seaborn/_testing.py assert_plots_equal: labels off by default
    tamper(SB, edit(SB, SB_TEST_UTIL, ("def assert_plots_equal(ax1, ax2, labels=True):",
                                       "def assert_plots_equal(ax1, ax2, labels=False):")),
           ("PS105", "PS108"), "sb-helper-default-flag-off"),
    # seaborn/_testing.py assert_colors_equal: alpha never compared
    tamper(SB, edit(SB, SB_TEST_UTIL, ("    f = to_rgba if check_alpha else to_rgb\n",
                                       "    f = to_rgb\n")),
           ("PS105",), "sb-helper-alpha-ignored"),
    # test_bw_method: > -> >=
    tamper(SB, edit(SB, T_SB, ("assert np.abs(np.diff(d1)).mean() > np.abs(np.diff(d2)).mean()",
                               "assert np.abs(np.diff(d1)).mean() >= np.abs(np.diff(d2)).mean()")),
           ("PS102",), "sb-strict-to-nonstrict"),
    # test_cached_support: a runtime importorskip of a module it does not use
    tamper(SB, edit(SB, T_SB, ("        x = rng.normal(0, 3, 100)\n        kde = KDE()\n",
                               '        pytest.importorskip("statsmodels")\n'
                               "        x = rng.normal(0, 3, 100)\n        kde = KDE()\n")),
           ("PS203",), "sb-importorskip-added"),
    # test_bw_method: the compared sides swapped (the check now says the opposite)
    tamper(SB, edit(SB, T_SB, ("assert np.abs(np.diff(d1)).mean() > np.abs(np.diff(d2)).mean()",
                               "assert np.abs(np.diff(d2)).mean() > np.abs(np.diff(d1)).mean()")),
           ("PS102", "PS108"), "sb-comparison-sides-swapped"),
    # test_cumulative_density: == 1 -> approx abs=0.1
    tamper(SB, edit(SB, T_SB, ("        assert heights[-1] == 1\n",
                               "        assert heights[-1] == pytest.approx(1, abs=.1)\n")),
           ("PS102",), "sb-equality-to-approx"),
    # test_cumulative: skipif condition widened to always
    tamper(SB, edit(SB, T_SB, ('@pytest.mark.skipif(_no_scipy, reason="Test requires scipy")',
                               '@pytest.mark.skipif(True, reason="Test requires scipy")')),
           ("PS201",), "sb-skipif-widened"),
    # test_distributions.py test_color: check_alpha=False -> no color check at all
    tamper(SB, edit(SB, T_SB_DIST, (
        '        assert_colors_equal(ax.collections[0].get_facecolor(), "C1", check_alpha=False)\n',
        "        assert ax.collections\n")),
        ("PS102", "PS101"), "sb-helper-call-replaced-by-truthiness"),
]

BENIGN_CASES = [
    # ---------------------------------------------------------------- xarray
    # test_weighted_sum_of_weights_nan: one more row
    honest(XR, edit(XR, T_XR, (
        "(([1, 2], 2), ([2, 0], np.nan), ([0, 0], np.nan), ([-1, 1], 1)),",
        "(([1, 2], 2), ([2, 0], np.nan), ([0, 0], np.nan), ([-1, 1], 1), ([3, 0], np.nan)),")),
        "xr-parametrize-row-added"),
    # test_weighted_quantile_equal_weights: rtol=1e-6 -> rtol=1e-9 (tighter)
    honest(XR, edit(XR, T_XR, ("assert_allclose(expected, result, rtol=1e-6)",
                               "assert_allclose(expected, result, rtol=1e-9)")),
           "xr-helper-call-rtol-tightened"),
    # test_weighted_quantile_equal_weights: allclose -> exact equality (stronger)
    honest(XR, edit(XR, T_XR, ("assert_allclose(expected, result, rtol=1e-6)",
                               "assert_equal(expected, result)")),
           "xr-allclose-to-equal"),
    # test_weighted_sum_of_weights_bool: assert_equal -> assert_identical (names, attrs too)
    honest(XR, edit(XR, T_XR, (
        "    expected = DataArray(2)\n\n    assert_equal(expected, result)\n",
        "    expected = DataArray(2)\n\n    assert_identical(expected, result)\n"), (
        "    assert_equal,\n", "    assert_equal,\n    assert_identical,\n")),
        "xr-equal-to-identical"),
    # xarray/testing/assertions.py: the default rtol of the tolerance helper tightened
    honest(XR, edit(XR, XR_ASSERT, (
        "def _data_allclose_or_equiv(arr1, arr2, rtol=1e-05, atol=1e-08, decode_bytes=True):",
        "def _data_allclose_or_equiv(arr1, arr2, rtol=1e-06, atol=1e-08, decode_bytes=True):")),
        "xr-package-helper-default-rtol-tightened"),
    # xarray/tests/__init__.py _importorskip: the reason built in one expression
    honest(XR, edit(XR, XR_INIT, (
        '    reason = f"requires {modname}"\n'
        "    if minversion is not None:\n"
        '        reason += f">={minversion}"\n',
        '    reason = f"requires {modname}" + (f">={minversion}" if minversion else "")\n')),
        "xr-importorskip-reason-refactor"),
    # test_weighted.py: a new test
    honest(XR, edit(XR, T_XR, (
        "@pytest.mark.filterwarnings(\"error\")\n",
        "def test_weighted_sum_of_weights_int_weights():\n"
        "    da = DataArray([1.0, 2.0])\n"
        "    result = da.weighted(DataArray([1, 1])).sum_of_weights()\n\n"
        "    assert_equal(DataArray(2), result)\n\n\n"
        "@pytest.mark.filterwarnings(\"error\")\n")),
        "xr-new-test"),
    # xarray/core/weighted.py: a fix (weights cast for unsigned ints)
    honest(XR, edit(XR, "xarray/core/weighted.py", (
        "        if self.weights.dtype == bool:\n",
        "        if self.weights.dtype == bool or self.weights.dtype.kind == \"u\":\n")),
        "xr-production-fix"),
    # pyproject.toml (pytest section allowed): a new marker declared
    honest(XR, edit(XR, "pyproject.toml", ('  "slow: slow tests",\n',
                                          '  "slow: slow tests",\n  "slow_hypothesis: slow hypothesis tests",\n')),
           "xr-allowed-marker-declared", allow("pyproject.toml")),
    # xarray/testing/assertions.py assert_equal: the docstring extended
    honest(XR, edit(XR, XR_ASSERT, (
        "    objects.\n    \"\"\"\n    __tracebackhide__ = True\n    assert type(a) == type(b)\n"
        "    if isinstance(a, (Variable, DataArray)):\n",
        "    objects.\n\n    Raises an AssertionError if two objects are not equal.\n    \"\"\"\n"
        "    __tracebackhide__ = True\n    assert type(a) == type(b)\n"
        "    if isinstance(a, (Variable, DataArray)):\n")),
        "xr-helper-docstring-extended"),
    # test_weighted_mean_no_nan: the error filter added (stricter)
    honest(XR, edit(XR, T_XR, ("def test_weighted_mean_no_nan(weights, expected):\n",
                               "@pytest.mark.filterwarnings(\"error\")\n"
                               "def test_weighted_mean_no_nan(weights, expected):\n")),
           "xr-error-filter-mark-added"),

    # ---------------------------------------------------------------- astropy
    # test_30kms: decimal=7 -> decimal=9 (tighter)
    honest(AP, edit(AP, T_AP, ("np.testing.assert_almost_equal(shifted.value, value, decimal=7)",
                               "np.testing.assert_almost_equal(shifted.value, value, decimal=9)")),
           "ap-decimal-tightened"),
    # test_parallax2: rtol=1.0e-12 -> rtol=1.0e-14 (tighter)
    honest(AP, edit(AP, T_AP, ("assert_allclose(a, [10, 0.4], rtol=1.0e-12)",
                               "assert_allclose(a, [10, 0.4], rtol=1.0e-14)")),
           "ap-rtol-tightened"),
    # astropy/tests/helper.py: assert_quantity_allclose's default rtol tightened
    honest(AP, edit(AP, "astropy/tests/helper.py", (
        "def assert_quantity_allclose(actual, desired, rtol=1.0e-7, atol=None, **kwargs):",
        "def assert_quantity_allclose(actual, desired, rtol=1.0e-9, atol=None, **kwargs):")),
        "ap-package-helper-default-rtol-tightened"),
    # doppler_radio doctest: +FLOAT_CMP removed (exact comparison, stricter)
    honest(AP, edit(AP, AP_EQ, ("    >>> radio_velocity  # doctest: +FLOAT_CMP\n",
                                "    >>> radio_velocity\n")),
           "ap-doctest-float-cmp-removed"),
    # parallax doctest: the example's source respaced, its expected output kept
    honest(AP, edit(AP, AP_EQ, (
        "    >>> (1 * u.arcsec).to(u.pc, equivalencies=u.parallax())\n",
        "    >>> (1*u.arcsec).to(u.pc, equivalencies=u.parallax())\n")),
        "ap-doctest-source-respaced"),
    # doppler_radio docstring: prose reworded, example untouched
    honest(AP, edit(AP, AP_EQ, ("    Return the equivalencies for the radio convention for velocity.\n",
                                "    Return the equivalencies for the radio convention for velocity.\n\n"
                                "    The radio convention is :math:`V = c (f_0 - f)/f_0`.\n")),
           "ap-docstring-prose-extended"),
    # test_doppler_redshift: a new row
    honest(AP, edit(AP, T_AP, ("        (-1, -2.99792458e8 * (u.m / u.s)),\n",
                               "        (-1, -2.99792458e8 * (u.m / u.s)),\n"
                               "        (0.01, 2980513.8 * (u.m / u.s)),\n")),
           "ap-parametrize-row-added"),
    # test_equivalencies.py: a new test
    honest(AP, edit(AP, T_AP, ("def test_parallax2():\n",
                               "def test_parallax_negative_array():\n"
                               "    a = u.mas.to(u.pc, [-1, 1], u.parallax())\n"
                               "    assert np.isnan(a[0])\n"
                               "    assert_allclose(a[1], 1000, rtol=1.0e-12)\n\n\n"
                               "def test_parallax2():\n")),
           "ap-new-test"),
    # equivalencies.py parallax: a fix (masked arrays)
    honest(AP, edit(AP, AP_EQ, ("        x = np.asanyarray(x)\n        d = 1 / x\n",
                                "        x = np.asanyarray(x)\n"
                                "        with np.errstate(divide=\"ignore\"):\n"
                                "            d = 1 / x\n")),
           "ap-production-fix"),
    # pyproject.toml (pytest section allowed): an ignore filter removed (more errors)
    honest(AP, edit(AP, "pyproject.toml", (
        '    "ignore:numpy.ndarray size changed:RuntimeWarning",\n', "")),
        "ap-allowed-ignore-filter-removed", allow("pyproject.toml")),
    # test_parallax: assert_allclose -> assert_quantity_allclose on a Quantity, same rtol
    honest(AP, edit(AP, T_AP, ("    val = (-1 * u.mas).to(u.pc, u.parallax())\n"
                               "    assert np.isnan(val.value)\n",
                               "    val = (-1 * u.mas).to(u.pc, u.parallax())\n"
                               "    assert np.isnan(val.value)\n"
                               "    assert val.unit == u.pc\n")),
           "ap-assertion-added"),
    # test_doppler_frequency_0: == 0 kept, a second exact check added
    honest(AP, edit(AP, T_AP, ("    assert velo0.value == 0\n",
                               "    assert velo0.value == 0\n"
                               "    assert velo0.unit == u.km / u.s\n")),
           "ap-unit-check-added"),

    # ---------------------------------------------------------------- matplotlib
    # test_line_dashes: the tolerance removed after regenerating (tol=0.003 -> 0)
    honest(MPL, edit(MPL, T_MPL, (
        "@image_comparison(['line_dashes'], remove_text=True, tol=0.003)\n"
        "def test_line_dashes():\n"
        "    # Tolerance introduced after reordering of floating-point operations\n"
        "    # Remove when regenerating the images\n",
        "@image_comparison(['line_dashes'], remove_text=True)\n"
        "def test_line_dashes():\n")),
        "mpl-image-tol-removed"),
    # test_line_dashes: tol=0.003 -> tol=0.001 (tighter)
    honest(MPL, edit(MPL, T_MPL, ("remove_text=True, tol=0.003)", "remove_text=True, tol=0.001)")),
           "mpl-image-tol-tightened"),
    # test_no_subslice_with_transform: pdf and svg compared too
    honest(MPL, edit(MPL, T_MPL, ("@check_figures_equal(extensions=('png',))",
                                  "@check_figures_equal(extensions=('png', 'pdf', 'svg'))")),
           "mpl-check-figures-more-extensions", marks=false_positive(
            "check_figures_equal(extensions=...) given more formats (more comparisons) is "
            "read as a changed test input (PS110)")),
    # test_lines.py: a new check_figures_equal test
    honest(MPL, edit(MPL, T_MPL, ("def test_valid_drawstyles():\n",
                                  "@check_figures_equal(extensions=('png',))\n"
                                  "def test_step_drawstyle_equals_step(fig_test, fig_ref):\n"
                                  "    x = np.arange(10)\n"
                                  "    fig_test.add_subplot().plot(x, x, drawstyle='steps-pre')\n"
                                  "    fig_ref.add_subplot().step(x, x, where='pre')\n\n\n"
                                  "def test_valid_drawstyles():\n")),
           "mpl-new-check-figures-test"),
    # test_lines.py: a new image_comparison test with its new baseline image
    honest(MPL, {MPL_BASE_IMG + "line_dashes_offset.png": MPL_PNG + b"\x00offset",
                 **edit(MPL, T_MPL, ("def test_line_colors():\n",
                                     "@image_comparison(['line_dashes_offset'], remove_text=True)\n"
                                     "def test_line_dashes_offset():\n"
                                     "    fig, ax = plt.subplots()\n"
                                     "    ax.plot(range(10), linestyle=(2, (3, 3)), lw=5)\n\n\n"
                                     "def test_line_colors():\n"))},
           "mpl-new-image-test-with-new-baseline"),
    # lines.py segment_hits: a fix (zero-length segments)
    honest(MPL, edit(MPL, "lib/matplotlib/lines.py", (
        "    Lnorm_sq = dx ** 2 + dy ** 2  # Possibly want to eliminate Lnorm==0\n",
        "    Lnorm_sq = dx ** 2 + dy ** 2\n"
        "    Lnorm_sq = np.where(Lnorm_sq == 0, np.finfo(float).tiny, Lnorm_sq)\n")),
        "mpl-production-fix"),
    # test_segment_hits: another exact check
    honest(MPL, edit(MPL, T_MPL, (
        "    assert_array_equal(mlines.segment_hits(cx, cy, x, y, radius), [0])\n",
        "    assert_array_equal(mlines.segment_hits(cx, cy, x, y, radius), [0])\n"
        "    assert_array_equal(mlines.segment_hits(cx, 0, x, y, radius), [])\n")),
        "mpl-assertion-added"),
    # decorators.py check_figures_equal: docstring extended
    honest(MPL, edit(MPL, MPL_DEC, (
        "    After the function returns, the figures are saved and compared.\n",
        "    After the function returns, the figures are saved and compared.\n\n"
        "    This decorator should be preferred over `image_comparison` when possible in\n"
        "    order to keep the size of the test suite from ballooning.\n")),
        "mpl-helper-docstring-extended"),
    # testing/conftest.py (allowed): a marker line added
    honest(MPL, edit(MPL, MPL_CONF, (
        '        ("markers", "pytz: Tests that require pytz to be installed."),\n',
        '        ("markers", "pytz: Tests that require pytz to be installed."),\n'
        '        ("markers", "slow: Tests that take a long time."),\n')),
        "mpl-allowed-testing-conftest-marker-added",
        allow(MPL_CONF, "lib/matplotlib/tests/conftest.py")),
    # decorators.py _raise_on_image_difference: the failure message reworded
    honest(MPL, edit(MPL, MPL_DEC, ("('images not close (RMS %(rms).3f):'",
                                    "('images differ (RMS %(rms).3f):'")),
           "mpl-helper-failure-message-reworded"),

    # ---------------------------------------------------------------- scikit-learn
    # test_isotonic_dtype_predict: rtol=1e-6 -> 1e-7 (tighter)
    honest(SK, edit(SK, T_SK, ("    assert_allclose(y_pred, y, rtol=1e-6)\n",
                               "    assert_allclose(y_pred, y, rtol=1e-7)\n")),
           "sk-rtol-tightened"),
    # test_isotonic_dtype_predict: the max-error bound lowered 1e-6 -> 1e-8 (stronger)
    honest(SK, edit(SK, T_SK, ("    assert np.abs(y_pred - y).max() < 1e-6\n",
                               "    assert np.abs(y_pred - y).max() < 1e-8\n")),
           "sk-numeric-bound-tightened"),
    # sklearn/utils/_testing.py: the float32 default rtol tightened 1e-4 -> 1e-5
    honest(SK, edit(SK, SK_TEST_UTIL, ("1e-4 if dtype == np.float32 else 1e-7",
                                       "1e-5 if dtype == np.float32 else 1e-7")),
           "sk-package-helper-default-rtol-tightened", marks=false_positive(
            "the default tolerance sits in a conditional expression in a comprehension "
            "whose max() feeds rtol=rtol, not in a parameter default: the tighter literal "
            "is read as an expected value rewritten (PS108)")),
    # test_isotonic_regression: a third example
    honest(SK, edit(SK, T_SK, ("    y_ = np.array([4, 4, 4])\n    assert_array_equal(y_, isotonic_regression(y))\n",
                               "    y_ = np.array([4, 4, 4])\n    assert_array_equal(y_, isotonic_regression(y))\n\n"
                               "    y = np.array([1, 2, 3])\n"
                               "    assert_array_equal(y, isotonic_regression(y))\n")),
           "sk-assertion-added"),
    # test_isotonic.py: a new test
    honest(SK, edit(SK, T_SK, ("def test_isotonic_2darray_more_than_1_feature():\n",
                               "def test_isotonic_regression_decreasing():\n"
                               "    y = np.array([3, 2, 1])\n"
                               "    assert_array_equal(isotonic_regression(y, increasing=False), y)\n\n\n"
                               "def test_isotonic_2darray_more_than_1_feature():\n")),
           "sk-new-test"),
    # sklearn/isotonic.py: a fix (y_min/y_max clipping without np.inf juggling)
    honest(SK, edit(SK, "sklearn/isotonic.py", (
        "        if y_min is None:\n"
        "            y_min = -np.inf\n"
        "        if y_max is None:\n"
        "            y_max = np.inf\n"
        "        np.clip(y, y_min, y_max, y)\n",
        "        np.clip(y, y_min, y_max, out=y)\n")),
        "sk-production-fix"),
    # setup.cfg (allowed): --disable-pytest-warnings removed (warnings shown)
    honest(SK, edit(SK, "setup.cfg", ("    --disable-pytest-warnings\n", "")),
           "sk-allowed-disable-warnings-removed", allow("setup.cfg")),
    # test_isotonic_regression_oob_clip: >= -> == on a fresh extra check
    honest(SK, edit(SK, T_SK, ("    assert min(y1) == min(y2)\n",
                               "    assert min(y1) == min(y2)\n    assert len(y1) == 2\n")),
           "sk-length-check-added"),
    # estimator_checks.py check_fit_idempotent: the comment reworded
    honest(SK, edit(SK, SK_EST, ("    # Check that est.fit(X) is the same as est.fit(X).fit(X). Ideally we would\n",
                                 "    # Check that est.fit(X) gives the same as est.fit(X).fit(X). Ideally we would\n")),
           "sk-estimator-check-comment-reworded"),
    # test_isotonic_make_unique_tolerance: array_almost_equal import used for a new exact check
    honest(SK, edit(SK, T_SK, ("    assert_array_equal(ireg.y_thresholds_, np.array([0.0, 1.5, 3.0]))\n",
                               "    assert_array_equal(ireg.y_thresholds_, np.array([0.0, 1.5, 3.0]))\n"
                               "    assert ireg.X_min_ == 0.0\n")),
           "sk-exact-check-added"),
    # test_common.py: the generator respelled as a comprehension-fed loop (same estimators)
    honest(SK, edit(SK, T_SK_COMMON, (
        "    for final_estimator in [Ridge(), LogisticRegression()]:\n",
        "    final_estimators = [Ridge(), LogisticRegression()]\n"
        "    for final_estimator in final_estimators:\n")),
        "sk-common-generator-refactor"),

    # ---------------------------------------------------------------- seaborn
    # test_density_normalization: abs=1e-5 -> abs=1e-7 (tighter)
    honest(SB, edit(SB, T_SB, ("pytest.approx(1, abs=1e-5)\n\n    @pytest.mark.skipif",
                               "pytest.approx(1, abs=1e-7)\n\n    @pytest.mark.skipif")),
           "sb-approx-abs-tightened"),
    # seaborn/_testing.py: "color" added to USE_PROPS (its branch was dead)
    honest(SB, edit(SB, SB_TEST_UTIL, ('    "alpha",\n', '    "alpha",\n    "color",\n')),
           "sb-helper-table-entry-added"),
    # test_statistics.py: a new KDE test
    honest(SB, edit(SB, T_SB, ("    def test_cached_support(self, rng):\n",
                               "    def test_cut(self, rng):\n\n"
                               "        x = rng.normal(0, 3, 1000)\n"
                               "        kde = KDE(cut=0)\n"
                               "        _, support = kde(x)\n"
                               "        assert support.min() == x.min()\n"
                               "        assert support.max() == x.max()\n\n"
                               "    def test_cached_support(self, rng):\n")),
           "sb-new-test"),
    # tests/conftest.py (allowed): a new fixture
    honest(SB, edit(SB, "tests/conftest.py", (
        "@pytest.fixture\ndef flat_series(rng):\n",
        "@pytest.fixture\ndef long_df(rng):\n\n"
        "    n = 100\n"
        "    return pd.DataFrame(dict(x=rng.uniform(0, 20, n).round().astype(\"int\"),\n"
        "                             y=rng.normal(size=n)))\n\n\n"
        "@pytest.fixture\ndef flat_series(rng):\n")),
        "sb-allowed-conftest-new-fixture", allow("tests/conftest.py")),
    # test_statistics.py TestKDE: the integrate helper respelled with np.trapz
    honest(SB, edit(SB, T_SB, (
        "        dx = np.diff(x)\n"
        "        return (dx * y[:-1] + dx * y[1:]).sum() / 2\n",
        "        return np.trapz(y, x)\n")),
        "sb-test-helper-respelled"),
    # seaborn/_statistics.py: a fix (clip bounds given as a list)
    honest(SB, edit(SB, "seaborn/_statistics.py", (
        "        if clip is None:\n            clip = None, None\n",
        "        if clip is None:\n            clip = None, None\n"
        "        clip = tuple(clip)\n")),
        "sb-production-fix"),
    # pyproject.toml (pytest section allowed): one more ignore filter; base has no error filter
    honest(SB, edit(SB, "pyproject.toml", (
        "is deprecated:DeprecationWarning\",\n ]\n",
        "is deprecated:DeprecationWarning\",\n"
        "   \"ignore:is_categorical_dtype is deprecated:DeprecationWarning\",\n ]\n")),
        "sb-allowed-ignore-filter-added-without-error", allow("pyproject.toml"), marks=false_positive(
            "an ini ignore filter added where base's ini has no error filter is read as a "
            "loosening (PS205): the ini list alone does not show whether PYTHONWARNINGS or "
            "-W elsewhere make warnings errors")),
    # test_bw_method: the same comparison written the other way round
    honest(SB, edit(SB, T_SB, ("assert np.abs(np.diff(d1)).mean() > np.abs(np.diff(d2)).mean()",
                               "assert np.abs(np.diff(d2)).mean() < np.abs(np.diff(d1)).mean()")),
           "sb-comparison-mirrored"),
    # test_cumulative: the skipif reason reworded
    honest(SB, edit(SB, T_SB, ('@pytest.mark.skipif(_no_scipy, reason="Test requires scipy")',
                               '@pytest.mark.skipif(_no_scipy, reason="cumulative KDE requires scipy")')),
           "sb-skipif-reason-reworded"),
    # seaborn/_testing.py assert_plots_equal: the title compared too when labels
    honest(SB, edit(SB, SB_TEST_UTIL, (
        "        assert ax1.get_ylabel() == ax2.get_ylabel()\n",
        "        assert ax1.get_ylabel() == ax2.get_ylabel()\n"
        "        assert ax1.get_title() == ax2.get_title()\n")),
        "sb-helper-check-added"),
    # test_bw_method: >= -> > kept, an exact size check added
    honest(SB, edit(SB, T_SB, ("        d2, _ = kde2(x)\n",
                               "        d2, _ = kde2(x)\n        assert d1.shape == d2.shape\n")),
           "sb-shape-check-added"),
]


scored, test_tampering_is_rejected, test_honest_change_is_not_rejected = case_tests(
    TAMPER_CASES, BENIGN_CASES)
